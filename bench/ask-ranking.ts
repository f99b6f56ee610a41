// `npx tsx bench/run.ts ask-ranking`: what /ask costs in process, without HTTP, at the corpus's size: the
// shipped catalog copied BENCH_ASK_COPIES times (20: 346,560 records) under new ids as bench/corpus.ts
// copies the sample (CVE-YYYY-N becomes CVE-YYYY-(N + copy × 1,000,000)), verified 2026-11-23 as the ask
// section imports its corpus, written to a snapshot file and served from it. Each question the ask section
// times (the realistic queries and the judged set, 10 answers) and each of the costliest questions the
// contract accepts (test/support/worst-questions.ts, 50 answers) is searched and its answer shaped as /ask
// sends it, BENCH_ASK_RUNS times (5); the figure is the fastest run's CPU time of this process, which moves
// far less with a shared machine's load than a latency does. A minute or two, no server, no PostgreSQL.
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCatalogFile } from '../src/catalog/json/catalog-file.js';
import { openSnapshotFile } from '../src/catalog/snapshot/snapshot-file.js';
import { writeSnapshotFile } from '../src/catalog/snapshot/snapshot-writer.js';
import { DEFAULT_RECORDS_FILE } from '../src/cli/serve-options.js';
import { ASK_LIMIT, type CatalogRecord } from '../src/contract/index.js';
import { search } from '../src/core/search/search.js';
import type { Snapshot } from '../src/core/snapshot.js';
import { toNlwebResult } from '../src/http/shared/result-shaping.js';
import { worstQuestions } from '../test/support/worst-questions.js';
import { ASKED } from './corpus-figures.js';
import { table } from './support.js';

const COPIES = Number(process.env.BENCH_ASK_COPIES ?? 20);
const RUNS = Number(process.env.BENCH_ASK_RUNS ?? 5);
/** The slowest questions shown. */
const SHOWN = 10;

/** The shipped records, then again under new ids, COPIES times in all. */
function copied(records: readonly CatalogRecord[]): CatalogRecord[] {
  const all = [...records];
  for (let copy = 1; copy < COPIES; copy++) {
    for (const record of records) {
      const [, year, number] = /^CVE-(\d{4})-(\d+)$/.exec(record.id)!;
      const id = `CVE-${year}-${Number(number) + copy * 1_000_000}`;
      all.push({ ...record, id, url: record.url && `https://www.cve.org/CVERecord?id=${id}` });
    }
  }
  return all;
}

/** CPU time of this process, ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Each question's fastest CPU time (ms) over RUNS runs of them all, slowest first. */
function timed(snapshot: Snapshot, questions: readonly string[], limit: number): Array<[string, number]> {
  const fastest = new Map<string, number>();
  for (let run = 0; run < RUNS; run++) {
    for (const question of questions) {
      const started = cpuMs();
      const found = search(snapshot, question, limit);
      JSON.stringify({ understood: found.explanation, results: found.hits.map((hit) => toNlwebResult(hit, 'http://cve.test', 'bench')) });
      const ms = cpuMs() - started;
      fastest.set(question, Math.min(fastest.get(question) ?? Number.POSITIVE_INFINITY, ms));
    }
  }
  return [...fastest].sort((a, b) => b[1] - a[1]);
}

export async function askRankingSection(): Promise<void> {
  const catalog = await readCatalogFile(DEFAULT_RECORDS_FILE);
  const dir = await mkdtemp(join(tmpdir(), 'bench-ask-ranking-'));
  try {
    const path = join(dir, 'copied.snapshot');
    await writeSnapshotFile(path, { ...catalog, lastVerified: '2026-11-23', records: copied(catalog.records) });
    const snapshot = openSnapshotFile(path);
    await snapshot.search.prepare();
    const loadBefore = loadavg()[0]!;
    const asked = timed(snapshot, [...new Set(ASKED)], ASK_LIMIT.default);
    const worst = timed(snapshot, Object.values(worstQuestions(snapshot.search.get())), ASK_LIMIT.max);
    const loadAfter = loadavg()[0]!;
    const times = asked.map(([, ms]) => ms).sort((a, b) => a - b);
    const at = (share: number) => times[Math.min(times.length - 1, Math.ceil(share * times.length) - 1)]!;
    console.log(
      `\n### /ask in process at ${snapshot.size.toLocaleString('en')} records (the shipped catalog ${COPIES} times): CPU time per question, fastest of ${RUNS} runs, load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after\n`,
    );
    console.log(
      table([
        { measure: `questions timed (realistic and judged, ${ASK_LIMIT.default} answers)`, value: asked.length, target: '' },
        { measure: 'mean (ms)', value: times.reduce((sum, ms) => sum + ms, 0) / times.length, target: '' },
        { measure: 'p50 (ms)', value: at(0.5), target: '' },
        { measure: 'p99 (ms)', value: at(0.99), target: '<= 10 over HTTP' },
        { measure: 'slowest (ms)', value: times.at(-1)!, target: '' },
      ]),
    );
    console.log(`\nThe slowest questions:\n`);
    console.log(table(asked.slice(0, SHOWN).map(([question, ms]) => ({ question, ms }))));
    const kinds = new Map(Object.entries(worstQuestions(snapshot.search.get())).map(([kind, question]) => [question, kind]));
    console.log(`\nThe costliest questions the contract accepts (${ASK_LIMIT.max} answers; the event loop is held this long):\n`);
    console.log(table(worst.map(([question, ms]) => ({ kind: kinds.get(question)!, ms }))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
