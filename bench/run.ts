// `npm run bench`: throughput of the service against a bare Fastify server measured in the same run, and
// the cost of deep pages. Prints Markdown for docs/PERFORMANCE.md.
import { mkdtemp } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_RECORDS_FILE } from '../src/cli/serve-options.js';
import { load, serveCatalog, spawnServer, table } from './support.js';
import { writeSyntheticCatalog } from './synthetic-catalog.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

async function throughput(): Promise<void> {
  const bare = await spawnServer([new URL('./bare-server.mjs', import.meta.url).pathname]);
  const baseline = await load(bare.url, SECONDS, bare);
  await bare.stop();

  const service = await serveCatalog(DEFAULT_RECORDS_FILE);
  const getOne = await load(`${service.url}/api/v1/cve-records/CVE-2025-24530`, SECONDS, service);
  const list = await load(`${service.url}/api/v1/cve-records?limit=20`, SECONDS, service);
  await service.stop();

  const row = (name: string, r: typeof baseline, target?: number) => ({
    case: name,
    'req/s': Math.round(r.rps),
    'p50 ms': r.p50,
    'p99 ms': r.p99,
    'req/s ratio': r.rps / baseline.rps,
    'server CPU µs/req': r.cpuMicros,
    'CPU ratio (bare/this)': baseline.cpuMicros / r.cpuMicros,
    target: target === undefined ? '' : `>= ${target}`,
    'met (req/s)': target === undefined ? '' : r.rps / baseline.rps >= target ? 'yes' : 'NO',
    'met (CPU)': target === undefined ? '' : baseline.cpuMicros / r.cpuMicros >= target ? 'yes' : 'NO',
    errors: r.non2xx,
  });
  console.log('\n### Throughput against a bare Fastify server (embedded dataset)\n');
  console.log(table([row('bare Fastify, constant JSON', baseline), row('get one record', getOne, 0.8), row('list, limit=20', list, 0.6)]));
}

async function deepPages(): Promise<void> {
  const file = join(await mkdtemp(join(tmpdir(), 'bench-')), 'catalog-100k.json');
  await writeSyntheticCatalog(file, 100_000);
  const service = await serveCatalog(file);
  // Walk to the cursor of page 1000 the way a client does.
  let cursor = '';
  for (let page = 1; page < 1000; page++) {
    const response = await fetch(`${service.url}/api/v1/cve-records?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    cursor = ((await response.json()) as { pagination: { nextCursor: string } }).pagination.nextCursor;
  }
  const first = await load(`${service.url}/api/v1/cve-records?limit=100`, SECONDS, service);
  const deep = await load(`${service.url}/api/v1/cve-records?limit=100&cursor=${encodeURIComponent(cursor)}`, SECONDS, service);
  await service.stop();
  const ratio = deep.rps / first.rps;
  console.log('\n### Deep pages: page 1000 of a 100,000-record catalog, limit=100\n');
  console.log(
    table([
      { page: 1, 'req/s': Math.round(first.rps), 'p50 ms': first.p50, 'p99 ms': first.p99, 'server CPU µs/req': first.cpuMicros, errors: first.non2xx },
      { page: 1000, 'req/s': Math.round(deep.rps), 'p50 ms': deep.p50, 'p99 ms': deep.p99, 'server CPU µs/req': deep.cpuMicros, errors: deep.non2xx },
    ]),
  );
  console.log(`\npage 1000 / page 1 throughput: ${ratio.toFixed(3)} (target: within 10%, i.e. >= 0.9): ${ratio >= 0.9 ? 'met' : 'NOT met'}`);
}

console.log(`# npm run bench (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} x ${cpus()[0]?.model.trim()}, ${SECONDS} s per case, 16 connections)`);
console.log('The load generator (autocannon) runs in this process and shares the cores with the server under test.');
await throughput();
await deepPages();
