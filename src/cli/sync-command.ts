// `cve-records sync <upstream> --catalog FILE`: brings a catalog up to date with the CVE Program's
// releases (a folder of release zips, an HTTP(S) URL serving them, or a cvelistV5 checkout), step by step,
// each step written whole with its cursor; `--follow` keeps doing so. A server watching the catalog (or a
// snapshot written with --out) reloads on each write.
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { findCatalogProblems } from '../catalog/catalog-validation.js';
import { readCatalogFile } from '../catalog/json/catalog-file.js';
import { formatOf, writeCatalogFile } from '../catalog/json/catalog-writer.js';
import { applyToDatabase } from '../catalog/postgres/database.js';
import type { CatalogFile } from '../contract/index.js';
import { checkout } from '../import/sync/checkout.js';
import { changedAny } from '../import/sync/merge.js';
import { releaseFolder } from '../import/sync/release-folder.js';
import { DEFAULT_DOWNLOAD_LIMIT, DEFAULT_STALL_TIMEOUT_MS, type ReleaseUrlOptions, releaseUrl } from '../import/sync/release-url.js';
import { type AppliedStep, syncSteps } from '../import/sync/sync.js';
import { type Upstream, UpstreamError } from '../import/sync/upstream.js';
import { readTargets, TARGET_OPTIONS } from './catalog-targets.js';
import { isoDate, readSelection, SELECTION_HELP, SELECTION_OPTIONS, type Selection } from './selection-options.js';
import { UsageError } from './serve-options.js';

export const SYNC_HELP = `Usage: cve-records sync <upstream> --catalog FILE [options]

Applies what changed upstream to a catalog, with the same selection and project naming as import. The
upstream is one of:
  a folder       of cvelistV5 release assets: YYYY-MM-DD_all_CVEs_at_midnight.zip.zip (baselines) and
                 YYYY-MM-DD_delta_CVEs_at_HH00Z.zip (deltas); other files are ignored
  an http(s) URL serving those assets: a base URL (the asset's name is added) or a template with {name},
                 and optionally {day} and {hour} of the release
  a checkout     of the cvelistV5 repository (a folder with cves/ and .git), kept current by git pull

The catalog keeps a cursor (the last baseline, delta or commit applied): a rerun applies only what is new,
and a sync stopped at any point loses nothing and applies nothing twice. A record whose CVE is rejected
leaves the catalog and is listed as removed in the change feed.

Options:
  --catalog FILE         the catalog to bring up to date (.json or .json.gz), created when missing
  --out FILE             also write the catalog here after each step, e.g. a .snapshot the server reads;
                         repeatable
  --last-verified DATE   lastVerified of a catalog created here (default: today, UTC)
  --to-database          also apply each step to PostgreSQL (--database-url or CVE_RECORDS_DATABASE_URL): the
                         records it changed and removed, in one transaction; replicas serving the database
                         follow it
  --database-url URL     PostgreSQL to apply the steps to
${SELECTION_HELP}
  --download-limit SIZE  the most an asset of an http(s) upstream may be, in bytes or with K, M or G (1024s):
                         one announcing more is refused before it is read, a longer body is cut (default 1.5G:
                         the midnight baseline, 500 to 600 MB in 2026, times 2.5)
  --download-stall-timeout SECONDS
                         abandon a download that receives no byte for this long (default 60)
  --follow               keep syncing, every --interval seconds, until stopped (SIGTERM or SIGINT)
  --interval SECONDS     time between syncs with --follow (default 300; upstream changes every few minutes)
  --help                 show this help
`;

const DEFAULT_INTERVAL_S = 300;
/** The catalog is rewritten at every step: fast compression (see writeCatalogFile). */
const SYNC_GZIP_LEVEL = 1;

export async function runSync(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      ...SELECTION_OPTIONS,
      ...TARGET_OPTIONS,
      catalog: { type: 'string' },
      'last-verified': { type: 'string' },
      follow: { type: 'boolean' },
      interval: { type: 'string' },
      'download-limit': { type: 'string' },
      'download-stall-timeout': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(SYNC_HELP);
    return 0;
  }
  const [source, ...extra] = positionals;
  if (source === undefined || extra.length > 0) throw new UsageError('name one upstream: a folder, an http(s) URL or a checkout');
  const catalogPath = values.catalog;
  if (catalogPath === undefined || !['json', 'json.gz'].includes(formatOf(catalogPath) ?? ''))
    throw new UsageError('--catalog: name the .json or .json.gz catalog to keep (it holds the sync cursor)');
  const { outs = [], database } = readTargets(values, env);
  const interval = values.interval === undefined ? DEFAULT_INTERVAL_S : Number(values.interval);
  if (!Number.isFinite(interval) || interval < 1) throw new UsageError(`--interval: expected seconds, got "${values.interval}"`);
  const lastVerified = isoDate('last-verified', values['last-verified']);
  const selection = await readSelection(values);
  const upstream = upstreamOf(source, catalogPath, {
    maxBytes: values['download-limit'] === undefined ? DEFAULT_DOWNLOAD_LIMIT : size('download-limit', values['download-limit']),
    stallTimeoutMs:
      values['download-stall-timeout'] === undefined
        ? DEFAULT_STALL_TIMEOUT_MS
        : 1000 * seconds('download-stall-timeout', values['download-stall-timeout']),
  });

  const once = () => syncOnce(upstream, { catalogPath, outs, database }, selection, lastVerified);
  if (!values.follow) return once();

  return follow(once, interval);
}

/**
 * Syncs every `interval` seconds until SIGTERM or SIGINT. The wait is a referenced timer the loop awaits:
 * it is what keeps the process alive between polls (an unref'd one let Node exit after the first poll).
 */
async function follow(once: () => Promise<number>, interval: number): Promise<number> {
  let stopping = false;
  let wake: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    stopping = true;
    clearTimeout(timer);
    wake?.();
  };
  // Kept, not once: a repeated signal (a group's and a relayed one) must not cut a step short.
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  try {
    while (!stopping) {
      // A failed sync (upstream down, a damaged download) is reported and tried again at the next interval.
      await once().catch((error: unknown) => log(`sync failed: ${(error as Error).message}`));
      if (stopping) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, interval * 1000);
      });
    }
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  }
  return 0;
}

type DownloadLimits = Required<Pick<ReleaseUrlOptions, 'maxBytes' | 'stallTimeoutMs'>>;

function upstreamOf(source: string, catalogPath: string, limits: DownloadLimits): Upstream {
  if (/^https?:\/\//i.test(source)) {
    if (!URL.canParse(source.replaceAll(/\{(name|day|hour)\}/g, 'x'))) throw new UsageError(`"${source}" is not a URL`);
    return releaseUrl(source, { cacheDir: join(dirname(catalogPath), '.cve-records-sync'), ...limits });
  }
  if (!existsSync(source) || !statSync(source).isDirectory()) throw new UsageError(`${source}: not a folder or an http(s) URL`);
  return existsSync(join(source, '.git')) && existsSync(join(source, 'cves')) ? checkout(source) : releaseFolder(source);
}

const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** A size in bytes, or with K, M or G (powers of 1024, an optional i and B: `1.5G`, `512MiB`). */
function size(option: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?$/i.exec(text.trim());
  const bytes = match ? Math.floor(Number(match[1]) * UNITS[match[2]!.toLowerCase()]!) : Number.NaN;
  if (!(bytes >= 1)) throw new UsageError(`--${option}: expected a size such as 2G or 500M, got "${text}"`);
  return bytes;
}

function seconds(option: string, text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`--${option}: expected seconds, got "${text}"`);
  return value;
}

interface Targets {
  /** The catalog that holds the cursor: written last, so every other target is at least as far along. */
  readonly catalogPath: string;
  readonly outs: readonly string[];
  readonly database: string | undefined;
}

async function syncOnce(
  upstream: Upstream,
  { catalogPath, outs, database }: Targets,
  selection: Selection,
  lastVerified: string | undefined,
): Promise<number> {
  const start: CatalogFile = existsSync(catalogPath)
    ? await readCatalogFile(catalogPath)
    : { lastVerified: lastVerified ?? new Date().toISOString().slice(0, 10), records: [] };
  let steps = 0;
  try {
    for await (const step of syncSteps(start, upstream, selection)) {
      // The catalog read at the start was checked whole; a step is checked by what it changed (the mapping
      // should make a problem impossible; a catalog the server would refuse is never written).
      const problems = findCatalogProblems({ ...step.catalog, records: changesOf(step).upsert });
      if (problems.length > 0)
        throw new UpstreamError(
          `${step.label}: the synced catalog is invalid (${problems[0]!.pointer}: ${problems[0]!.problem}); nothing written`,
        );
      // The other targets first, the catalog with its cursor last: a stop in between redoes the step, which
      // changes nothing already applied. A step that changed no record only moves the cursor.
      if (changedAny(step.report)) {
        if (database) await applyToDatabase(database, changesOf(step));
        for (const out of outs) await writeCatalogFile(out, step.catalog, { gzipLevel: SYNC_GZIP_LEVEL });
      }
      await writeCatalogFile(catalogPath, step.catalog, { gzipLevel: SYNC_GZIP_LEVEL });
      log(stepSummary(step));
      for (const problem of step.result.problems) log(`skipped ${problem.source}: ${problem.category}: ${problem.detail}`);
      steps++;
    }
  } catch (error) {
    if (error instanceof UpstreamError) {
      log(`sync stopped: ${error.message}`);
      return 1;
    }
    throw error;
  }
  if (steps === 0) {
    // An output named for the first time is written even when there is nothing new.
    for (const out of outs) if (!existsSync(out)) await writeCatalogFile(out, start);
    log(`up to date (${describeCursor(start)})`);
  }
  return 0;
}

/** What a step changed, as rows to write and ids to delete. */
function changesOf({ catalog, report }: AppliedStep) {
  const changed = new Set([...report.added, ...report.updated, ...report.published]);
  return {
    lastVerified: catalog.lastVerified,
    upsert: catalog.records.filter((record) => changed.has(record.id)),
    remove: report.removed,
  };
}

function stepSummary({ label, catalog, report, result }: AppliedStep): string {
  const changed = [
    `${report.added.length} added`,
    `${report.updated.length} updated`,
    `${report.published.length} cleared ids published`,
    `${report.removed.length} removed (rejected)`,
    `${report.older} older than held`,
  ];
  const published = report.published.length > 0 ? `; now public: ${report.published.join(', ')}` : '';
  const skipped = result.problems.length;
  const bad = skipped > 0 ? `; ${skipped} bad record${skipped === 1 ? '' : 's'} skipped (listed below)` : '';
  return `applied ${label}: read ${result.read}, ${changed.join(', ')}${bad}${published}; catalog ${catalog.records.length} records (${describeCursor(catalog)})`;
}

function describeCursor(catalog: CatalogFile): string {
  const cursor = catalog.sync;
  if (!cursor) return 'never synced';
  return [
    cursor.baseline && `baseline ${cursor.baseline}`,
    cursor.delta && `delta ${cursor.delta}`,
    cursor.commit && `commit ${cursor.commit.slice(0, 12)}`,
  ]
    .filter(Boolean)
    .join(', ');
}

function log(line: string): void {
  process.stdout.write(`${new Date().toISOString()} ${line}\n`);
}
