// Release assets over HTTP(S) as an upstream: a URL template with `{name}` (the asset's file name) and
// optionally `{day}` and `{hour}` (of the release, for mirrors that file assets by release), or a base
// URL to which `/{name}` is added. An HTTP server lists nothing, so the releases that exist are found by
// asking for the ones that can: today's baseline (and yesterday's), and for each day since the cursor
// the latest delta, from the newest hour back to the one already applied. A poll that finds nothing new
// costs one or two requests. Each asset is downloaded beside the catalog when its step is reached, read,
// and deleted once applied.
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { releaseStep } from './release-folder.js';
import { atHour, baselineName, deltaName, parseReleaseName, type Release } from './release-names.js';
import { planReleases } from './sync-plan.js';
import { type CursorPlace, type Upstream, UpstreamError } from './upstream.js';

export interface ReleaseUrlOptions {
  /** Where downloads go while they are read. */
  readonly cacheDir: string;
  readonly now?: () => Date;
  /** The days before today a sync looks back for deltas when it has no newer baseline. */
  readonly lookBackDays?: number;
  readonly fetch?: typeof fetch;
}

const PROBE_TIMEOUT_MS = 15_000;
const DOWNLOAD_TIMEOUT_MS = 30 * 60_000;

export function releaseUrl(template: string, options: ReleaseUrlOptions): Upstream {
  const get = options.fetch ?? fetch;
  const now = options.now ?? (() => new Date());
  const lookBack = options.lookBackDays ?? 2;
  const urlOf = (release: Release): string => {
    const hour = release.at.slice(11, 13);
    const filled = template.includes('{name}') ? template : `${template.replace(/\/$/, '')}/{name}`;
    return filled.replaceAll('{name}', release.name).replaceAll('{day}', release.day).replaceAll('{hour}', hour);
  };
  const exists = async (release: Release): Promise<boolean> => {
    const response = await request(get, urlOf(release), 'HEAD', PROBE_TIMEOUT_MS);
    await response.body?.cancel();
    if (response.ok) return true;
    if (response.status === 404 || response.status === 403 || response.status === 410) return false;
    throw new UpstreamError(`${urlOf(release)}: HTTP ${response.status}`);
  };

  /** The releases worth knowing of after the cursor: the newest baseline, and the latest delta of each day. */
  const discover = async (cursor: CursorPlace | undefined): Promise<Release[]> => {
    const today = now().toISOString().slice(0, 10);
    const found: Release[] = [];
    for (const day of [today, dayBefore(today)]) {
      if (day <= (cursor?.baseline ?? '')) break;
      const baseline = parseReleaseName(baselineName(day))!;
      if (await exists(baseline)) {
        found.push(baseline);
        break;
      }
    }
    const applied = cursor?.delta ?? '';
    const from = [found[0]?.day, applied.slice(0, 10), daysBefore(today, lookBack)].filter(Boolean).sort().at(-1)!;
    for (let day = from; day <= today; day = dayAfter(day)) {
      const newestHour = day === today ? now().getUTCHours() : 24;
      for (let hour = newestHour; hour >= 0 && atHour(day, hour) > applied; hour--) {
        const delta = parseReleaseName(deltaName(day, hour))!;
        if (await exists(delta)) {
          found.push(delta);
          break;
        }
      }
    }
    return found;
  };

  return {
    name: template,
    async *steps(cursor) {
      for (const release of planReleases(cursor, await discover(cursor))) {
        await mkdir(options.cacheDir, { recursive: true });
        const path = join(options.cacheDir, release.name);
        await download(get, urlOf(release), path);
        yield releaseStep(release, path, () => rm(path, { force: true }));
      }
    },
  };
}

async function request(get: typeof fetch, url: string, method: string, timeoutMs: number): Promise<Response> {
  try {
    return await get(url, { method, redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new UpstreamError(`${url}: ${(error as Error).message}`);
  }
}

/** Streams the asset to `<path>.part`, renamed into place when it is whole. */
async function download(get: typeof fetch, url: string, path: string): Promise<void> {
  const response = await request(get, url, 'GET', DOWNLOAD_TIMEOUT_MS);
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new UpstreamError(`${url}: HTTP ${response.status}`);
  }
  const part = `${path}.part`;
  try {
    await pipeline(Readable.fromWeb(response.body), createWriteStream(part));
    await rename(part, path);
  } catch (error) {
    await rm(part, { force: true });
    throw new UpstreamError(`${url}: download failed: ${(error as Error).message}`);
  }
}

const DAY_MS = 86_400_000;
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
const dayBefore = (day: string) => daysBefore(day, 1);
const daysBefore = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10);
