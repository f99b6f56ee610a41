// What a sync applies, from where its cursor stands and which releases exist. A baseline newer than the
// last one applied replaces nothing but reconciles everything (it holds every record, so it mends what a
// delta missed); then, day by day, only the latest delta of each day, since a delta holds every change
// since its midnight. A release at or before the cursor is never applied again: duplicates and deltas
// that turn up late change nothing.
import type { SyncCursor } from '../../contract/index.js';
import type { Release } from './release-names.js';

export function planReleases(cursor: Pick<SyncCursor, 'baseline' | 'delta'> | undefined, releases: readonly Release[]): Release[] {
  const steps: Release[] = [];
  let applied = cursor?.delta ?? (cursor?.baseline === undefined ? '' : `${cursor.baseline}T00:00Z`);
  const baseline = releases
    .filter((release) => release.kind === 'baseline' && release.day > (cursor?.baseline ?? ''))
    .sort(byTime)
    .at(-1);
  if (baseline) {
    steps.push(baseline);
    if (baseline.at > applied) applied = baseline.at;
  }
  const latestOfDay = new Map<string, Release>();
  for (const release of releases) {
    if (release.kind !== 'delta' || release.at <= applied) continue;
    const known = latestOfDay.get(release.day);
    if (!known || byTime(release, known) > 0) latestOfDay.set(release.day, release);
  }
  steps.push(...[...latestOfDay.values()].sort(byTime));
  return steps;
}

/** By time, then by name, so that two spellings of one release always pick the same file. */
function byTime(a: Release, b: Release): number {
  return a.at < b.at ? -1 : a.at > b.at ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
