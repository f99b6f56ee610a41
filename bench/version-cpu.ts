// `node --expose-gc --import tsx bench/version-cpu.ts [SNAPSHOT]` (issue 27): load-independent figures of the version
// queries on a snapshot file (the corpus's, imported once; the shipped data without one): each part of the index's build (the
// kernel's ranges, which the first list below builds; the package and CPE lists; every other project's ranges), its CPU time and
// the heap and resident size it adds, then CPU time and garbage collections per request of the list with
// `project=Linux&version=6.1.5` at page 1 and a deep page and of a batch of the judged pairs, in process
// (app.inject, no client sharing the cores). Repeatable on a busy machine, unlike the served figures.
import { readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { openSnapshotFile } from '../src/catalog/snapshot/snapshot-file.js';
import { createSnapshot } from '../src/core/snapshot.js';
import type { VersionParts } from '../src/core/versions/version-index.js';
import { buildTestApp, loadDefaultCatalog } from '../test/support/app.js';
import type { JudgedCase } from '../test/support/version-judged-set.js';

const path = process.argv[2];
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');
const LIST = '/api/v1/cve-records?project=Linux&version=6.1.5&limit=20';
const DEEP_PAGE = Number(process.env.BENCH_VERSION_PAGE ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);

let collections = 0;
let collectionMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    collections++;
    collectionMs += entry.duration;
  }
}).observe({ entryTypes: ['gc'] });

const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1e6;
};
const rssMb = () => process.memoryUsage().rss / 1e6;
const usage = () =>
  Object.entries(process.memoryUsage())
    .map(([name, bytes]) => `${name} ${(bytes / 1e6).toFixed(1)}`)
    .join(', ');
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const snapshot = path === undefined ? createSnapshot(await loadDefaultCatalog()) : openSnapshotFile(path);
const app = await buildTestApp({ snapshot });
const heapBefore = heapMb();
const rssBefore = rssMb();
console.log(`before the build (MB): ${usage()}; records ${snapshot.size}`);
const index = await snapshot.versions.prepare();

/** A part of the index built: its CPU time, and the heap and resident size the index holds then over the snapshot's. */
async function built(name: string, parts: VersionParts): Promise<void> {
  const cpu = cpuMs();
  await index.prepare(parts);
  const buildCpu = cpuMs() - cpu;
  const rss = rssMb();
  console.log(
    `${name}: build CPU ${buildCpu.toFixed(0)} ms; in all, RSS added ${(rss - rssBefore).toFixed(1)} MB, heap added after gc ${(heapMb() - heapBefore).toFixed(1)} MB, RSS after gc ${(rssMb() - rssBefore).toFixed(1)} MB (${usage()})`,
  );
}

await built('the kernel’s ranges', { projects: [snapshot.filters.projectCode('Linux')!], names: false });

async function get(url: string): Promise<{ pagination: { nextCursor: string | null; total: number } }> {
  const response = await app.inject({ method: 'GET', url });
  if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return response.json();
}

let cpu = cpuMs();
const first = await get(LIST);
console.log(`first list (total counted): CPU ${(cpuMs() - cpu).toFixed(1)} ms, total ${first.pagination.total}`);
let cursor = '';
for (let page = 1; page < DEEP_PAGE; page++) {
  const next = (await get(`${LIST}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).pagination.nextCursor;
  if (next === null) throw new Error(`fewer than ${DEEP_PAGE} pages`);
  cursor = next;
}

/** CPU per call and collections per call over ROUNDS calls after 20 warm-up calls. */
async function perCall(name: string, call: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 20; i++) await call();
  const times: number[] = [];
  const gcBefore = collections;
  const gcMsBefore = collectionMs;
  const cpuBefore = cpuMs();
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  const cpuEach = (cpuMs() - cpuBefore) / ROUNDS;
  times.sort((a, b) => a - b);
  const at = (share: number) => times[Math.ceil(share * times.length) - 1]!.toFixed(2);
  console.log(
    `${name}: CPU ${cpuEach.toFixed(3)} ms per call; wall p50 ${at(0.5)} p99 ${at(0.99)} ms; collections ${((collections - gcBefore) / ROUNDS).toFixed(3)} per call (${((collectionMs - gcMsBefore) / ROUNDS).toFixed(3)} ms)`,
  );
}

await perCall('list page 1', () => get(LIST));
await perCall(`list page ${DEEP_PAGE}`, () => get(`${LIST}&cursor=${encodeURIComponent(cursor)}`));
await perCall('list without version, page 1', () => get('/api/v1/cve-records?project=Linux&limit=20'));

const judged = JSON.parse(readFileSync(new URL('../test/fixtures/versions/judged-set.json', import.meta.url), 'utf8')) as {
  cases: JudgedCase[];
};
const queries = [];
for (const judgedCase of judged.cases.filter((_, i) => i % 5 === 0).slice(0, 100)) {
  const record = (await app.inject({ method: 'GET', url: `/api/v1/cve-records/${judgedCase.id}` })).json() as { project: string };
  queries.push({ project: record.project, version: judgedCase.version });
}
const batch = (body: unknown) => async () => {
  const response = await app.inject({ method: 'POST', url: '/api/v1/cve-records/version-checks/batch', payload: body as object });
  if (response.statusCode !== 200) throw new Error(`batch: ${response.statusCode} ${response.body}`);
};
cpu = cpuMs();
await batch({ queries })();
console.log(`first batch of the judged pairs: CPU ${(cpuMs() - cpu).toFixed(1)} ms`);
await perCall('batch of 100 judged pairs', batch({ queries }));
await built('and the package and CPE lists', { projects: [], names: true });
await built('and every project’s ranges', { projects: snapshot.table.projectNames.map((_, code) => code), names: false });
await app.close();
