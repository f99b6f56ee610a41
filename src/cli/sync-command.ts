// `cve-records sync <upstream> --catalog STORE`: brings the store of record up to date with the CVE
// Program's releases (a folder of release zips, an HTTP(S) URL serving them, or a cvelistV5 checkout), step
// by step, each step one transaction with its cursor; `--follow` keeps doing so. Servers on the store apply
// each step's rows as it commits. A JSON catalog still works as the store: it is read into memory, and
// written whole after each step (the way before the store, at the whole catalog's cost).
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { readCatalogFile } from '../catalog/json/catalog-file.js';
import { formatOf, writeCatalogFile } from '../catalog/json/catalog-writer.js';
import { migrate } from '../catalog/postgres/database.js';
import { postgresStore } from '../catalog/postgres/postgres-store.js';
import { isStorePath, openSqliteStore } from '../catalog/sqlite/sqlite-store.js';
import { readCatalogFromStore, writeCatalogToStore } from '../catalog/store/catalog-store.js';
import { mirroredStore } from '../catalog/store/mirrored-store.js';
import { InvalidRowError } from '../catalog/store/row-facts.js';
import type { CatalogFile } from '../contract/index.js';
import type { RecordStore, StoreState } from '../core/record-store.js';
import { checkout } from '../import/sync/checkout.js';
import { changedAny } from '../import/sync/merge.js';
import { releaseFolder } from '../import/sync/release-folder.js';
import { DEFAULT_DOWNLOAD_LIMIT, DEFAULT_STALL_TIMEOUT_MS, type ReleaseUrlOptions, releaseUrl } from '../import/sync/release-url.js';
import { type AppliedStep, syncSteps } from '../import/sync/sync.js';
import { type Upstream, UpstreamError } from '../import/sync/upstream.js';
import { boundHeapGrowth } from './batch-heap.js';
import { readTargets, TARGET_OPTIONS } from './catalog-targets.js';
import { isoDate, readSelection, SELECTION_HELP, SELECTION_OPTIONS, type Selection } from './selection-options.js';
import { UsageError } from './serve-options.js';

export const SYNC_HELP = `Usage: cve-records sync <upstream> --catalog STORE [options]

Applies what changed upstream to the store of record, with the same selection and project naming as
import. The upstream is one of:
  a folder       of cvelistV5 release assets: YYYY-MM-DD_all_CVEs_at_midnight.zip.zip (baselines) and
                 YYYY-MM-DD_delta_CVEs_at_HH00Z.zip (deltas); other files are ignored
  an http(s) URL serving those assets: a base URL (the asset's name is added) or a template with {name},
                 and optionally {day} and {hour} of the release
  a checkout     of the cvelistV5 repository (a folder with cves/ and .git), kept current by git pull

The store keeps a cursor (the last baseline, delta or commit applied) and writes each step with it in one
transaction: a rerun applies only what is new, and a sync stopped at any point loses nothing and applies
nothing twice. A step reads and writes only the records it brings. A record whose CVE is rejected leaves
the catalog and is listed as removed in the change feed.

Options:
  --catalog STORE        the store to bring up to date, created when missing: an SQLite file (.db, .sqlite;
                         the embedded default, which serve --records reads live), a postgres:// URL (the
                         shared store replicas follow), or a .json/.json.gz catalog (read whole and written
                         whole after each step: slow at the corpus's size)
  --out FILE             also write the whole catalog here after each step that changed it (.json,
                         .json.gz, or .snapshot: a checkpoint); repeatable
  --checkpoint FILE      write a .snapshot checkpoint of the store (naming it and its sequence) after each
                         baseline, and when the file is missing: serve --checkpoint starts from it plus the
                         rows after it
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
      checkpoint: { type: 'string' },
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
  if (
    catalogPath === undefined ||
    !(isStorePath(catalogPath) || isDatabaseUrl(catalogPath) || ['json', 'json.gz'].includes(formatOf(catalogPath) ?? ''))
  )
    throw new UsageError(
      '--catalog: name the store to keep (a .db file, a postgres:// URL, or a .json or .json.gz catalog): it holds the sync cursor',
    );
  const { outs = [], database } = readTargets(values, env);
  for (const out of outs)
    if (isStorePath(out)) throw new UsageError(`--out ${out}: a sync's store is its --catalog; --out writes catalog files`);
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

  const checkpoint = values.checkpoint;
  if (checkpoint !== undefined && formatOf(checkpoint) !== 'snapshot') throw new UsageError('--checkpoint: name a .snapshot file');
  if (checkpoint !== undefined && !isStorePath(catalogPath) && !isDatabaseUrl(catalogPath))
    throw new UsageError('--checkpoint: checkpoints are of a store (--catalog a .db file or a postgres:// URL), not of a JSON catalog');
  // A JSON catalog is read and written whole at every step: its heap bounded from the start, as an import's.
  if (!isStorePath(catalogPath) && !isDatabaseUrl(catalogPath)) boundHeapGrowth();
  const once = () =>
    syncOnce(upstream, { catalogPath, outs, database, checkpoint }, selection, lastVerified, { beforeWhole: boundHeapGrowth });
  if (!values.follow) return once();

  const stopping = new AbortController();
  const stop = () => stopping.abort();
  // Kept, not once: a repeated signal (a group's and a relayed one) must not cut a step short.
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  try {
    return await follow(once, interval, stopping.signal);
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  }
}

/**
 * `serve --sync`: follows upstream inside the serving process, into the store it serves, every `interval`
 * seconds until `signal` aborts; `onStep` after each step committed (the server applies it at once).
 */
export function followInProcess(
  source: string,
  store: string,
  { interval, selection, signal, onStep }: { interval: number; selection: Selection; signal: AbortSignal; onStep: () => void },
): Promise<number> {
  const upstream = upstreamOf(source, store, { maxBytes: DEFAULT_DOWNLOAD_LIMIT, stallTimeoutMs: DEFAULT_STALL_TIMEOUT_MS });
  return follow(
    () => syncOnce(upstream, { catalogPath: store, outs: [], database: undefined }, selection, undefined, { onStep }),
    interval,
    signal,
  );
}

/**
 * Syncs every `interval` seconds until `signal` aborts. The wait is a referenced timer the loop awaits:
 * it is what keeps the process alive between polls (an unref'd one let Node exit after the first poll).
 */
async function follow(once: () => Promise<number>, interval: number, signal: AbortSignal): Promise<number> {
  let stopping = signal.aborted;
  let wake: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  signal.addEventListener('abort', () => {
    stopping = true;
    clearTimeout(timer);
    wake?.();
  });
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
    wake = undefined;
  }
  return 0;
}

const isDatabaseUrl = (text: string) => /^postgres(ql)?:\/\//.test(text);

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
  /** The store that holds the cursor. */
  readonly catalogPath: string;
  readonly outs: readonly string[];
  readonly database: string | undefined;
  /** A checkpoint written after each whole step and when missing. */
  readonly checkpoint?: string | undefined;
}

/**
 * The store `--catalog` names, and what to do after each step (write a JSON catalog back whole).
 * `lasting`: a store that outlives the run, whose snapshot files are checkpoints servers may start from.
 */
async function openStore(
  catalogPath: string,
  lastVerified: string | undefined,
): Promise<{ store: RecordStore; lasting: boolean; after: () => Promise<void> }> {
  if (isStorePath(catalogPath)) return { store: openSqliteStore(catalogPath), lasting: true, after: async () => {} };
  if (isDatabaseUrl(catalogPath)) {
    await migrate(catalogPath);
    return { store: postgresStore(catalogPath), lasting: true, after: async () => {} };
  }
  // A JSON catalog: its records in an in-memory store for the run, the file rewritten whole with its cursor.
  const store = openSqliteStore(':memory:');
  const catalog: CatalogFile = existsSync(catalogPath)
    ? await readCatalogFile(catalogPath)
    : { lastVerified: lastVerified ?? new Date().toISOString().slice(0, 10), records: [] };
  await writeCatalogToStore(store, catalog);
  return { store, lasting: false, after: () => writeStore(catalogPath, store, false) };
}

/**
 * The whole store as a catalog file. A snapshot file of a lasting store is a checkpoint naming it and its
 * sequence; one of a JSON catalog's in-memory store names none, so the same catalog gives the same bytes.
 */
async function writeStore(path: string, store: RecordStore, lasting: boolean): Promise<void> {
  const { catalog, details, state } = await readCatalogFromStore(store);
  await writeCatalogFile(path, catalog, {
    gzipLevel: SYNC_GZIP_LEVEL,
    details,
    ...(lasting ? { checkpoint: { id: state.storeId, sequence: state.sequence } } : {}),
  });
}

async function syncOnce(
  upstream: Upstream,
  { catalogPath, outs, database, checkpoint }: Targets,
  selection: Selection,
  lastVerified: string | undefined,
  { onStep = () => {}, beforeWhole }: { onStep?: () => void; beforeWhole?: () => void } = {},
): Promise<number> {
  const opened = await openStore(catalogPath, lastVerified);
  // Each store's writer checks every row it writes (row-facts.ts).
  const store = database ? mirroredStore(opened.store, postgresStore(database)) : opened.store;
  if (database) await migrate(database);
  let steps = 0;
  try {
    for await (const step of syncSteps(store, upstream, selection, { lastVerified, beforeWhole })) {
      if (changedAny(step.report)) for (const out of outs) await writeStore(out, store, opened.lasting);
      if (checkpoint !== undefined && (step.whole || !existsSync(checkpoint))) await writeStore(checkpoint, store, opened.lasting);
      await opened.after();
      onStep();
      log(await stepSummary(step, store));
      for (const problem of step.result.problems) log(`skipped ${problem.source}: ${problem.category}: ${problem.detail}`);
      steps++;
    }
    if (steps === 0) {
      // An output named for the first time is written even when there is nothing new.
      for (const out of [...outs, ...(checkpoint === undefined ? [] : [checkpoint])])
        if (!existsSync(out)) await writeStore(out, store, opened.lasting);
      log(`up to date (${describeCursor(await store.state())})`);
    }
    return 0;
  } catch (error) {
    if (error instanceof UpstreamError || error instanceof InvalidRowError) {
      log(`sync stopped: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await store.close();
  }
}

async function stepSummary({ label, report, result, sequence, ms, cpuMs }: AppliedStep, store: RecordStore): Promise<string> {
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
  return `applied ${label} in ${Math.round(ms)} ms (CPU ${Math.round(cpuMs)} ms): read ${result.read}, ${changed.join(', ')}${bad}${published}; sequence ${sequence} (${describeCursor(await store.state())})`;
}

function describeCursor(state: StoreState): string {
  const cursor = state.sync;
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
