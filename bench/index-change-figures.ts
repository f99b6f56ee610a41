// The index-change section of `npm run bench` (`npx tsx bench/run.ts index-change`): what a change of 500
// records costs a served snapshot at a given size (BENCH_INDEX_CHANGE_RECORDS, 340,000 by default, with
// details): applyChange, the layered search index made ready, the first queries scoring through the overlay,
// 20 changes in a row, and the overlay merged into a new base (in steps). In this process: the figures are
// the core's, without HTTP; peak memory is this process's high-water mark.
import { performance } from 'node:perf_hooks';
import type { CatalogFile, CatalogRecord } from '../src/contract/index.js';
import { compareListingOrder } from '../src/core/cve-id.js';
import { mergeOverlay } from '../src/core/search/overlay-merge.js';
import { search } from '../src/core/search/search.js';
import { createSnapshot, prepareSnapshot, type Snapshot } from '../src/core/snapshot.js';
import { applyChange, type SnapshotChange } from '../src/core/snapshot-delta.js';
import { REALISTIC_QUERIES } from './corpus-figures.js';
import { table } from './support.js';
import { syntheticRecord } from './synthetic-catalog.js';

const RECORDS = Number(process.env.BENCH_INDEX_CHANGE_RECORDS ?? 340_000);
const CHANGES = 20;
const CHANGED = 450;
const ADDED = 25;
const REMOVED = 25;

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const rssMb = () => mb(process.memoryUsage().rss);
const peakMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

/** 450 records rewritten (another record's summary), 25 new, 25 removed: a delta of 500. */
function changeOf(records: readonly CatalogRecord[], step: number): SnapshotChange {
  const modified = new Date(Date.UTC(2026, 0, 1, step)).toISOString();
  const stride = Math.max(1, Math.floor(records.length / (CHANGED + REMOVED)));
  const upserted: CatalogRecord[] = [];
  for (let i = 0; i < CHANGED; i++) {
    const record = records[(i * stride + step) % records.length]!;
    const donor = records[(i * stride + step * 7 + 1) % records.length]!;
    upserted.push({ ...record, summary: donor.summary, modified });
  }
  for (let i = 0; i < ADDED; i++) upserted.push({ ...syntheticRecord(RECORDS + step * ADDED + i, { details: true }), modified });
  const taken = new Set(upserted.map((record) => record.id));
  const removed = [];
  for (let i = CHANGED; removed.length < REMOVED; i++) {
    const id = records[(i * stride + step) % records.length]!.id;
    if (!taken.has(id)) removed.push({ id, modified });
  }
  return { sequence: step, lastVerified: '2026-01-01', upserted, removed };
}

/** The top 10 of each realistic query, ids and scores, as one text per query. */
const topTens = (snapshot: Snapshot): string[] =>
  REALISTIC_QUERIES.map((query) => JSON.stringify(search(snapshot, query, 10).hits.map((hit) => [hit.entry.record.id, hit.score])));

/** The realistic queries' top 10s of a snapshot built whole from `records`. */
async function rebuiltTopTens(records: Iterable<CatalogRecord>): Promise<string[]> {
  const rebuilt = createSnapshot({ lastVerified: '2026-01-01', records: [...records].sort((a, b) => compareListingOrder(a.id, b.id)) });
  await prepareSnapshot(rebuilt);
  return topTens(rebuilt);
}

async function timed<T>(work: () => Promise<T> | T): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: Math.round(performance.now() - start) };
}

export async function indexChangeSection(): Promise<void> {
  console.log(
    `\n## Index change: a 500-record change applied to a served snapshot of ${RECORDS.toLocaleString('en')} records with details\n`,
  );
  const records = Array.from({ length: RECORDS }, (_, i) => syntheticRecord(i, { details: true }));
  const catalog: CatalogFile = { lastVerified: '2026-01-01', records };
  const full = await timed(async () => {
    const snapshot = createSnapshot(catalog);
    await prepareSnapshot(snapshot);
    return snapshot;
  });
  let snapshot: Snapshot = full.value;
  const startRss = rssMb();
  const rows: Record<string, string | number>[] = [{ step: 'full build (createSnapshot + prepare)', ms: full.ms, 'RSS MB': startRss }];

  const queries = async (label: string) => {
    const { ms } = await timed(() => {
      for (const query of REALISTIC_QUERIES) search(snapshot, query, 10);
    });
    rows.push({ step: label, ms, 'RSS MB': rssMb() });
  };
  await queries('40 realistic queries, base index');

  const changeTimes: number[] = [];
  const readyTimes: number[] = [];
  // The catalog the changes make, for the rebuild the overlay's ranking is held to.
  const current = new Map(records.map((record) => [record.id, record]));
  for (let step = 1; step <= CHANGES; step++) {
    const change = changeOf(records, step);
    for (const record of change.upserted) current.set(record.id, record);
    for (const { id } of change.removed) current.delete(id);
    const applied = await timed(() => applyChange(snapshot, change));
    const ready = await timed(() => prepareSnapshot(applied.value));
    snapshot = applied.value;
    changeTimes.push(applied.ms);
    readyTimes.push(ready.ms);
    if (step === 1) {
      rows.push({ step: 'change 1: applyChange', ms: applied.ms, 'RSS MB': rssMb() });
      rows.push({ step: 'change 1: index, projects, feed order ready', ms: ready.ms, 'RSS MB': rssMb() });
      await queries('40 realistic queries after change 1 (first: words rescored)');
      await queries('40 realistic queries again (rescored words kept)');
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  rows.push({
    step: `changes 1-${CHANGES}: applyChange, median / max`,
    ms: `${median(changeTimes)} / ${Math.max(...changeTimes)}`,
    'RSS MB': rssMb(),
  });
  rows.push({
    step: `changes 1-${CHANGES}: ready, median / max`,
    ms: `${median(readyTimes)} / ${Math.max(...readyTimes)}`,
    'RSS MB': rssMb(),
  });
  await queries(`40 realistic queries after ${CHANGES} changes`);
  const layered = topTens(snapshot);
  const merged = await timed(() => mergeOverlay(snapshot));
  snapshot = merged.value ?? snapshot;
  rows.push({ step: 'overlay merged (in steps) and vocabulary built', ms: merged.ms, 'RSS MB': rssMb() });
  await queries('40 realistic queries after the merge');
  const afterMerge = topTens(snapshot);
  const rebuilt = await rebuiltTopTens(current.values());
  const same = (tops: string[]) => `${tops.filter((top, i) => top === rebuilt[i]).length} of ${rebuilt.length}`;
  console.log(table(rows));
  console.log(
    `\ntop 10 of the ${rebuilt.length} realistic queries after ${CHANGES} changes (ids and scores) the same as a full rebuild's (target: all): through the overlay ${same(layered)}, after its merge ${same(afterMerge)}`,
  );
  console.log(`\npeak RSS of the run: ${peakMb()} MB; RSS after the full build ${startRss} MB, at the end ${rssMb()} MB`);
}
