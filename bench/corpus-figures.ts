// The corpus section of `npm run bench`: a cvelistV5-shaped release of 340,000 records (bench/corpus.ts)
// imported, served from its snapshot file and from PostgreSQL, searched, loaded and reloaded, with every
// figure of issue 13 against its target. Each process under test is its own child; its peak memory is the
// kernel's high-water mark (VmHWM), read while it runs.
import { renameSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DEFAULT_RECORDS_FILE } from '../src/cli/serve-options.js';
import { readJudgedQuestions } from '../test/support/judged-questions.js';
import { buildCorpus, publishedIds } from './corpus.js';
import { heading } from './noise.js';
import { cpuSeconds, type Load, load, memoryMb, runCli, type Server, serve, serveCatalog, table } from './support.js';
import { ensureTools, PINNED, pinServer, ratioRow, rotatingPaths, unpinServer, type WrkLoad, wrkLoad } from './wrk.js';

export const CORPUS_SIZE = Number(process.env.BENCH_CORPUS_SIZE ?? 340_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** The record every get-one load asks for: in the embedded dataset and in the corpus (its first copy). */
const RECORD_ID = 'CVE-2025-24530';

/**
 * What people ask: ids in several spellings, project names, typos and prefixes, years and statuses, and
 * the phrases that match most of the corpus ("vulnerability", "remote code execution", "denial of
 * service"), which are the ones a ranking without early termination pays for.
 */
export const REALISTIC_QUERIES = [
  'CVE-2025-24530',
  'cve-2019-19065',
  'CVE 2023 4863',
  'openssl',
  'linux kernel',
  'curl',
  'wordpress plugin',
  'chrome',
  'tensorflow',
  'jenkins',
  'gitlab',
  'apache http server',
  'remote code execution',
  'denial of service',
  'buffer overflow',
  'sql injection',
  'cross-site scripting',
  'allows remote attackers to execute arbitrary code',
  'vulnerability',
  'memory corruption',
  'privilege escalation',
  'information disclosure',
  'heap overflow in curl',
  'nginx use-after-free',
  'linux kernel memory leak',
  'xss in wordpress plugin 2024',
  'sqlite since 2023',
  'path traversal Django 2022',
  'race condition sudo',
  'TLS handshake',
  'ImageMagick image decoder',
  'opnessl',
  'wordpres',
  'kubernets',
  'libxm',
  'postg',
  'before 2005',
  'which Linux issues are not public yet',
  'published in 2024',
  'xyzzy frobnicate',
];

/** A number from the importer's summary line `label: … N …`. */
function summaryCount(stdout: string, pattern: RegExp): number {
  const match = pattern.exec(stdout);
  if (!match) throw new Error(`the import summary has no ${pattern}:\n${stdout}`);
  return Number(match[1]);
}

/** Time from a start to the first 200 of `path`, polled as fast as the server answers. */
export async function firstAnswer(server: Server, path: string, started: number): Promise<number> {
  for (;;) {
    const response = await fetch(`${server.url}${path}`).catch(() => undefined);
    if (response) await response.arrayBuffer();
    if (response?.ok) return (performance.now() - started) / 1000;
  }
}

/** Starts a server and times its first REST and first /ask answers (/ask waits for the search index). */
async function startTimed(args: string[]): Promise<{ server: Server; rest: number; ask: number }> {
  const started = performance.now();
  const server = await serve(args);
  const rest = await firstAnswer(server, `/api/v1/cve-records/${RECORD_ID}`, started);
  const ask = await firstAnswer(server, '/ask?query=openssl', started);
  return { server, rest, ask };
}

/** What /ask is timed with (issue 26): the realistic set and the judged questions in everyday wording. */
export const ASKED = [...REALISTIC_QUERIES, ...readJudgedQuestions().map((judged) => judged.question)];

export interface AskLatencies {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly count: number;
  /** The server's CPU time per question (ms). */
  readonly cpuMs: number;
  /** Each question's slowest time (ms), slowest first. */
  readonly slowest: ReadonlyArray<readonly [string, number]>;
}

/**
 * Sequential /ask requests over the realistic set and the judged questions, `rounds` times; latency as the
 * client sees it, and the server's CPU time per question.
 */
export async function askLatencies(server: Server, rounds: number): Promise<AskLatencies> {
  const times: number[] = [];
  const slowest = new Map<string, number>();
  const cpuBefore = cpuSeconds(server.child.pid!);
  for (let round = 0; round < rounds; round++) {
    for (const query of ASKED) {
      const started = performance.now();
      const response = await fetch(`${server.url}/ask?query=${encodeURIComponent(query)}`);
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`/ask ${query}: ${response.status}`);
      const ms = performance.now() - started;
      times.push(ms);
      slowest.set(query, Math.max(slowest.get(query) ?? 0, ms));
    }
  }
  const cpuMs = ((cpuSeconds(server.child.pid!) - cpuBefore) * 1000) / times.length;
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return {
    p50: at(0.5),
    p99: at(0.99),
    max: times[times.length - 1]!,
    count: times.length,
    cpuMs,
    slowest: [...slowest].sort((a, b) => b[1] - a[1]),
  };
}

/** Resets the process's peak-memory mark (Linux clear_refs 5), so the next peak is a reload's own. */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

function waitForLine(server: Server, pattern: RegExp): Promise<void> {
  return new Promise((resolve) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!pattern.test(output)) return;
      server.child.stdout!.off('data', onData);
      resolve();
    };
    server.child.stdout!.on('data', onData);
  });
}

async function throughputRatios(snapshotFile: string, seconds: number): Promise<Array<Record<string, string | number>>> {
  const measure = async (records: string): Promise<{ one: Load; list: Load }> => {
    const server = await serveCatalog(records);
    await firstAnswer(server, '/ask?query=openssl', performance.now()); // the index is built: steady state
    const one = await load(`${server.url}/api/v1/cve-records/${RECORD_ID}`, seconds, server);
    const list = await load(`${server.url}/api/v1/cve-records?limit=20`, seconds, server);
    await server.stop();
    return { one, list };
  };
  const small = await measure(DEFAULT_RECORDS_FILE);
  const large = await measure(snapshotFile);
  const row = (name: string, a: Load, b: Load) => ({
    case: name,
    'embedded req/s': Math.round(a.rps),
    'corpus req/s': Math.round(b.rps),
    'corpus/embedded': b.rps / a.rps,
    'embedded p99 ms': a.p99,
    'corpus p99 ms': b.p99,
    target: '>= 0.9',
    met: b.rps / a.rps >= 0.9 ? 'yes' : 'NO',
    'non-2xx': a.non2xx + b.non2xx,
  });
  return [row('get one record', small.one, large.one), row('list, limit=20', small.list, large.list)];
}

/**
 * Details get-one against plain get-one on the same server (issue 15), each over the same ids (every 16th
 * published record of the sample: about 1,000 records of every age and size), loaded by wrk on its own core
 * with the server pinned to the other, best of ROUNDS interleaved rounds. Plain records come from get-one's
 * stored bytes; details are read from the snapshot file's text region on every request. A third case asks
 * for every 2nd published record of the sample (about 8,600) in turn: details spread over more of the file.
 */
async function detailsThroughput(server: Server, seconds: number): Promise<Array<Record<string, string | number>>> {
  ensureTools();
  const ids = await publishedIds(CORPUS_SIZE, 16);
  const wide = await publishedIds(CORPUS_SIZE, 2);
  const scripts = {
    plain: await rotatingPaths(ids.map((id) => `/api/v1/cve-records/${id}`)),
    details: await rotatingPaths(ids.map((id) => `/api/v1/cve-records/${id}/details`)),
    wide: await rotatingPaths(wide.map((id) => `/api/v1/cve-records/${id}/details`)),
  };
  const pid = server.child.pid!;
  pinServer(pid);
  const best: Partial<Record<keyof typeof scripts, WrkLoad>> = {};
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, script] of Object.entries(scripts) as Array<[keyof typeof scripts, string]>) {
        const result = await wrkLoad(server.url, seconds, pid, script);
        if (!best[name] || result.rps > best[name].rps) best[name] = result;
      }
    }
  } finally {
    unpinServer(pid);
  }
  const baseline = best.plain!;
  const row = (name: string, r: WrkLoad, target?: number) => ratioRow(name, r, baseline, 'get-one', target);
  return [
    row(`get one record (${ids.length} ids in turn)`, baseline),
    row("get one record's details (the same ids)", best.details!, 0.7),
    row(`details of ${wide.length} ids in turn`, best.wide!),
  ];
}

async function postgres(add: (row: Record<string, string | number>) => void, corpusPath: string): Promise<void> {
  const schema = 'bench_corpus';
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = `${DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  try {
    await runCli(['db', 'migrate', '--database-url', url]);
    const imported = await runCli(['import', corpusPath, '--to-database', '--database-url', url, '--last-verified', '2026-11-23']);
    add({ measure: 'PostgreSQL: import --to-database (s)', value: imported.seconds, target: '', met: '' });
    add({ measure: 'PostgreSQL: import peak memory (MB)', value: imported.peakMb, target: '', met: '' });
    const { server, rest, ask } = await startTimed(['--database-url', url]);
    add({ measure: 'PostgreSQL: start to first REST answer (s)', value: rest, target: '', met: '' });
    add({ measure: 'PostgreSQL: start to first /ask answer (s)', value: ask, target: '', met: '' });
    add({ measure: 'PostgreSQL: resident memory, index built (MB)', value: memoryMb(server.child.pid!, 'VmRSS'), target: '', met: '' });
    await server.stop();
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
}

export async function corpusSection(seconds: number): Promise<void> {
  const corpus = await buildCorpus(CORPUS_SIZE, (line) => console.error(line));
  const dir = await mkdtemp(join(tmpdir(), 'bench-corpus-'));
  const snapshot = join(dir, 'corpus.snapshot');
  const rows: Array<Record<string, string | number>> = [];
  const add = (row: Record<string, string | number>) => {
    rows.push(row);
    console.error(`  ${row.measure}: ${row.value}`); // progress, and the figures so far if a later step fails
  };
  const check = (measure: string, value: number, limit: number, atLeast = false) =>
    add({ measure, value, target: `${atLeast ? '>=' : '<='} ${limit}`, met: (atLeast ? value >= limit : value <= limit) ? 'yes' : 'NO' });
  try {
    // What an operator runs: the snapshot the server starts from, and the JSON catalog beside it.
    const imported = await runCli([
      'import',
      corpus.path,
      '--out',
      snapshot,
      '--out',
      join(dir, 'corpus.json.gz'),
      '--last-verified',
      '2026-11-23',
    ]);
    check('import, snapshot + json.gz (s)', imported.seconds, 60);
    check('import peak memory (MB)', imported.peakMb, 1024);
    const servable = summaryCount(imported.stdout, /^imported:\s+(\d+)/m);
    const placeholder = Number(/placeholder (\d+)/.exec(imported.stdout)?.[1] ?? 0);
    check(`published records servable (% of ${corpus.published.toLocaleString('en')})`, (servable / corpus.published) * 100, 100, true);
    check('published records under the placeholder name (%)', (placeholder / corpus.published) * 100, 0.5);

    const { server, rest, ask } = await startTimed(['--records', snapshot]);
    check('start to first REST answer (s)', rest, 2);
    check('start to first /ask answer (s)', ask, 4);
    const latency = await askLatencies(server, 5);
    const details = await detailsThroughput(server, seconds);
    check(
      'resident memory with details, index built, after the queries and the details load (MB)',
      memoryMb(server.child.pid!, 'VmRSS'),
      500,
    );
    add({ measure: `/ask p50 (ms, ${latency.count} sequential requests over HTTP)`, value: latency.p50, target: '', met: '' });
    check('/ask p99 (ms)', latency.p99, 10);
    add({ measure: '/ask slowest (ms)', value: latency.max, target: '', met: '' });
    add({ measure: '/ask server CPU per question (ms)', value: latency.cpuMs, target: '', met: '' });

    // A reload: another version of the corpus (another lastVerified) renamed over the served file.
    const next = join(dir, 'next.snapshot');
    const second = await runCli(['import', corpus.path, '--out', next, '--last-verified', '2026-11-24']);
    add({ measure: 'import, snapshot only (s)', value: second.seconds, target: '', met: '' });
    add({ measure: 'import, snapshot only, peak memory (MB)', value: second.peakMb, target: '', met: '' });
    const before = memoryMb(server.child.pid!, 'VmRSS');
    resetPeak(server.child.pid!);
    const reloaded = waitForLine(server, /catalog reloaded/);
    const reloadStarted = performance.now();
    renameSync(next, snapshot);
    await reloaded;
    add({ measure: 'reload of a replaced snapshot file (s)', value: (performance.now() - reloadStarted) / 1000, target: '', met: '' });
    add({
      measure: 'reload: peak memory over the memory before it (MB)',
      value: memoryMb(server.child.pid!, 'VmHWM') - before,
      target: '',
      met: '',
    });
    await server.stop();

    console.log(
      `\n### The corpus: ${corpus.records.toLocaleString('en')} records (${corpus.published.toLocaleString('en')} published), a ${Math.round(corpus.bytes / 1e6)} MB release zip\n`,
    );
    console.log(table(rows));
    console.log(
      heading(
        `Details against plain get-one, the same server (snapshot file, index built; wrk, 50 connections, best of ${ROUNDS} interleaved rounds${PINNED ? ', server on core 0, wrk on core 1' : ''})`,
        4,
      ),
    );
    console.log(table(details));
    console.log('\n#### Throughput at the corpus size against the embedded dataset (snapshot file, index built)\n');
    console.log(table(await throughputRatios(snapshot, seconds)));
    rows.length = 0;
    await postgres(add, corpus.path);
    console.log('\n#### The corpus in PostgreSQL\n');
    console.log(table(rows));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
