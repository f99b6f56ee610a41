// Release assets over HTTP(S) as an upstream: a URL template with `{name}` (the asset's file name) and
// optionally `{day}` and `{hour}` (of the release, for mirrors that file assets by release), or a base
// URL to which `/{name}` is added. An HTTP server lists nothing, so the releases that exist are found by
// asking for the ones that can: today's baseline (and yesterday's), and for each day since the cursor
// the latest delta, from the newest hour back to the one already applied. A release found absent an hour
// or more after its time is not coming (upstream publishes each within minutes, and a later delta holds
// all it would have): it is remembered, in memory and beside the downloads, and not asked for again, so a
// poll that finds nothing new costs one or two requests (this hour's delta, today's baseline until it
// exists), however far behind the last release is. Each asset is downloaded beside the catalog when its step is reached, read,
// and deleted once applied or refused.
//
// A download is untrusted too: it may be no larger than a limit (an announced Content-Length over it is
// refused before the body is read, a body is cut when it passes it) and must keep coming (a stall timeout
// of our own, from the request on, rather than the HTTP client's five minutes). A refused download leaves
// nothing behind.
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
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
  /** The most bytes an asset may have. Default DEFAULT_DOWNLOAD_LIMIT. */
  readonly maxBytes?: number;
  /** How long a download may go without a byte, in milliseconds. Default DEFAULT_STALL_TIMEOUT_MS. */
  readonly stallTimeoutMs?: number;
}

/**
 * The largest real asset is the midnight baseline, 500 to 600 MB in 2026; 2.5 times that leaves years of
 * upstream growth, while an endless or lying body costs at most this much disk.
 */
export const DEFAULT_DOWNLOAD_LIMIT = 1.5 * 1024 ** 3;
/** A mirror that sends nothing for a minute is not coming back in this poll. */
export const DEFAULT_STALL_TIMEOUT_MS = 60_000;

const PROBE_TIMEOUT_MS = 15_000;
const DOWNLOAD_TIMEOUT_MS = 30 * 60_000;

export function releaseUrl(template: string, options: ReleaseUrlOptions): Upstream {
  const get = options.fetch ?? fetch;
  const limits: DownloadLimits = {
    maxBytes: options.maxBytes ?? DEFAULT_DOWNLOAD_LIMIT,
    stallTimeoutMs: options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
  };
  const now = options.now ?? (() => new Date());
  const lookBack = options.lookBackDays ?? 2;
  const urlOf = (release: Release): string => {
    const hour = release.at.slice(11, 13);
    const filled = template.includes('{name}') ? template : `${template.replace(/\/$/, '')}/{name}`;
    return filled.replaceAll('{name}', release.name).replaceAll('{day}', release.day).replaceAll('{hour}', hour);
  };
  const absent = absentReleases(join(options.cacheDir, ABSENT_FILE));
  const exists = async (release: Release): Promise<boolean> => {
    if (absent.has(release.name)) return false;
    const response = await request(get, urlOf(release), 'HEAD', AbortSignal.timeout(PROBE_TIMEOUT_MS));
    await response.body?.cancel();
    if (response.ok) return true;
    if (response.status === 404 || response.status === 403 || response.status === 410) {
      absent.note(release, now());
      return false;
    }
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
    await absent.save(daysBefore(today, lookBack + 1));
    return found;
  };

  return {
    name: template,
    async *steps(cursor) {
      for (const release of planReleases(cursor, await discover(cursor))) {
        await mkdir(options.cacheDir, { recursive: true });
        const path = join(options.cacheDir, release.name);
        await download(get, urlOf(release), path, limits);
        yield releaseStep(release, path, () => rm(path, { force: true }));
      }
    },
  };
}

async function request(get: typeof fetch, url: string, method: string, signal: AbortSignal): Promise<Response> {
  try {
    return await get(url, { method, redirect: 'follow', signal });
  } catch (error) {
    throw new UpstreamError(`${url}: ${(error as Error).message}`);
  }
}

interface DownloadLimits {
  readonly maxBytes: number;
  readonly stallTimeoutMs: number;
}

/** Streams the asset to `<path>.part`, renamed into place when it is whole; nothing is left when it is not. */
async function download(get: typeof fetch, url: string, path: string, { maxBytes, stallTimeoutMs }: DownloadLimits): Promise<void> {
  const stalled = new AbortController();
  const seconds = stallTimeoutMs / 1000;
  const stall = () => stalled.abort(new Error(`no byte received for ${seconds} s (--download-stall-timeout)`));
  let timer = setTimeout(stall, stallTimeoutMs);
  const byteCame = () => {
    clearTimeout(timer);
    timer = setTimeout(stall, stallTimeoutMs);
  };
  const part = `${path}.part`;
  try {
    const response = await request(get, url, 'GET', AbortSignal.any([stalled.signal, AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS)]));
    const announced = Number(response.headers.get('content-length') ?? Number.NaN);
    if (!response.ok || !response.body || announced > maxBytes) {
      await response.body?.cancel();
      throw new UpstreamError(
        response.ok && response.body
          ? `${url}: refused: it announces ${announced} bytes, over the download limit of ${maxBytes} bytes (--download-limit)`
          : `${url}: HTTP ${response.status}`,
      );
    }
    try {
      await pipeline(Readable.fromWeb(response.body), sizeLimit(maxBytes, byteCame), createWriteStream(part));
      await rename(part, path);
    } catch (error) {
      throw new UpstreamError(
        `${url}: download failed: ${(stalled.signal.reason as Error | undefined)?.message ?? (error as Error).message}`,
      );
    }
  } finally {
    clearTimeout(timer);
    await rm(part, { force: true });
  }
}

/** Passes bytes on, telling `onBytes` of each chunk, and fails once more than `maxBytes` have come. */
function sizeLimit(maxBytes: number, onBytes: () => void): Transform {
  let received = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      onBytes();
      received += chunk.length;
      if (received > maxBytes) done(new Error(`more than ${maxBytes} bytes, over the download limit (--download-limit)`));
      else done(null, chunk);
    },
  });
}

const DAY_MS = 86_400_000;
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
const dayBefore = (day: string) => daysBefore(day, 1);
const daysBefore = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10);

/** Where the releases found absent are remembered between runs, in the download folder. */
const ABSENT_FILE = 'absent-releases.json';
const HOUR_MS = 3_600_000;

/**
 * Releases asked for and absent although their time was an hour past or more: a poll need not ask again.
 * Kept in a small file so that a sync run by cron (a new process each time) asks as little as a follower.
 */
function absentReleases(path: string) {
  const names = new Set<string>();
  try {
    for (const name of JSON.parse(readFileSync(path, 'utf8')) as unknown[]) if (typeof name === 'string') names.add(name);
  } catch {
    // none remembered yet (or a damaged file): ask again, which only costs requests
  }
  let changed = false;
  return {
    has: (name: string) => names.has(name),
    note(release: Release, at: Date) {
      const due = Date.parse(`${release.at.slice(0, 11)}00:00Z`) + Number(release.at.slice(11, 13)) * HOUR_MS;
      if (at.getTime() - due < HOUR_MS) return; // may still come
      names.add(release.name);
      changed = true;
    },
    /** Forgets releases of days before `oldest` (never asked for again anyway) and writes the rest. */
    async save(oldest: string) {
      for (const name of names) {
        if (name.slice(0, 10) >= oldest) continue;
        names.delete(name);
        changed = true;
      }
      if (!changed) return;
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, JSON.stringify([...names].sort()));
      changed = false;
    },
  };
}
