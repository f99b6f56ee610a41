// A folder of release assets as an upstream: whatever baseline and delta zips an operator (or a mirror job)
// drops there. Files whose names are not release names are ignored, so partial downloads (`*.part`) and
// notes can sit beside them.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readInputs } from '../inputs.js';
import { parseReleaseName, type Release } from './release-names.js';
import { planReleases } from './sync-plan.js';
import { type CursorPlace, type Upstream, UpstreamError, type UpstreamStep } from './upstream.js';

export function releaseFolder(dir: string): Upstream {
  return {
    name: dir,
    async *steps(cursor) {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        throw new UpstreamError(`cannot list ${dir}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
      }
      const releases = names.map(parseReleaseName).filter((release) => release !== undefined);
      for (const release of planReleases(cursor, releases)) yield releaseStep(release, join(dir, release.name));
    },
  };
}

/** A release read from a local file. */
export function releaseStep(release: Release, path: string, cleanup: () => Promise<void> = async () => {}): UpstreamStep {
  const reaches: CursorPlace = release.kind === 'baseline' ? { baseline: release.day, delta: release.at } : { delta: release.at };
  return { label: release.name, whole: release.kind === 'baseline', entries: () => readInputs([path]), reaches, release: cleanup };
}
