// `npm run bench versions` (issue 27): version queries at the corpus size. The corpus release (corpus.ts:
// the shared sample's records under new ids, their affected blocks real) is imported to a snapshot file
// and served; then, against the issue's targets: the memory the version data adds (VmRSS before and after
// the first version query builds what it reads, the kernel's ranges, and once every project was asked about,
// read at once and after a full collection, collected-memory.ts; bench/version-cpu.ts gives each part's), the
// list with `project=&version=` at page 1 and page 100 (autocannon under load, p99 and the server's CPU per
// request, best of ROUNDS interleaved rounds: a p99 is whole milliseconds, which one slow request moves), a
// batch check of 100 (project, version) pairs of the judged set with the server's CPU per batch, and the worst
// batch (100 distinct checks of the largest project at versions no range places). Heavy: only on a quiet machine.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JudgedCase } from '../test/support/version-judged-set.js';
import { collectedRssMb, inspectedServer } from './collected-memory.js';
import { buildCorpus } from './corpus.js';
import { heading, processTicks, record, watchQuietness } from './noise.js';
import { BIN, type Load, load, memoryMb, NODE_FLAGS, runCli, SERVE_OPTIONS, type Server, table, untilLine } from './support.js';

const CORPUS_SIZE = Number(process.env.BENCH_CORPUS_SIZE ?? 340_000);
const BATCH_ROUNDS = 30;
/** Interleaved rounds of page 1 and the deep page, each `seconds` long. */
const ROUNDS = 3;
/** The deep page the list is measured at (page 1 and this one); fewer pages exist at a smaller corpus. */
const DEEP_PAGE = Number(process.env.BENCH_VERSION_PAGE ?? 100);
const LIST = 'project=Linux&version=6.1.5&limit=20';
const BATCH_PATH = '/api/v1/cve-records/version-checks/batch';

/** 100 (project, version) pairs: the judged set's cases, each with the project its record is filed under. */
async function judgedPairs(server: Server): Promise<{ project: string; version: string }[]> {
  const judged = JSON.parse(readFileSync(new URL('../test/fixtures/versions/judged-set.json', import.meta.url), 'utf8')) as {
    cases: JudgedCase[];
  };
  const pairs: { project: string; version: string }[] = [];
  for (const judgedCase of judged.cases.filter((_, i) => i % 5 === 0).slice(0, 100)) {
    const record = (await (await fetch(`${server.url}/api/v1/cve-records/${judgedCase.id}`)).json()) as { project: string };
    pairs.push({ project: record.project, version: judgedCase.version });
  }
  return pairs;
}

async function post(server: Server, body: unknown): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${server.url}${BATCH_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${BATCH_PATH}: ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
  return performance.now() - started;
}

/**
 * Sequential batches: p50, p99 and the slowest, in milliseconds, and the server's CPU per batch (ms, from
 * its clock ticks over all of them), with how quiet the machine was meanwhile.
 */
async function batchLatencies(
  server: Server,
  body: unknown,
  rounds: number,
): Promise<{ p50: number; p99: number; max: number; cpuMs: number }> {
  await post(server, body); // warm-up
  const quiet = watchQuietness();
  const ticks = processTicks(server.child.pid!);
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) times.push(await post(server, body));
  const used = processTicks(server.child.pid!) - ticks;
  record(quiet.finish(used));
  times.sort((a, b) => a - b);
  const at = (share: number) => times[Math.min(times.length - 1, Math.ceil(share * times.length) - 1)]!;
  return { p50: at(0.5), p99: at(0.99), max: times.at(-1)!, cpuMs: (used * 10) / rounds };
}

/** Every project's name, from the projects operation's pages. */
async function everyProject(server: Server): Promise<string[]> {
  const names: string[] = [];
  for (let cursor: string | null = ''; cursor !== null; ) {
    const url = `${server.url}/api/v1/projects?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = (await (await fetch(url)).json()) as { projects: { name: string }[]; pagination: { nextCursor: string | null } };
    names.push(...page.projects.map((project) => project.name));
    cursor = page.pagination.nextCursor;
  }
  return names;
}

async function pageCursor(server: Server, query: string, page: number): Promise<string> {
  let cursor = '';
  for (let n = 1; n < page; n++) {
    const url = `${server.url}/api/v1/cve-records?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const next = ((await (await fetch(url)).json()) as { pagination: { nextCursor: string | null } }).pagination.nextCursor;
    if (next === null) throw new Error(`${query} has fewer than ${page} pages`);
    cursor = next;
  }
  return cursor;
}

async function quietLoad(url: string, seconds: number, server: Server): Promise<Load> {
  const quiet = watchQuietness();
  const ticks = processTicks(server.child.pid!);
  const result = await load(url, seconds, server);
  record(quiet.finish(processTicks(server.child.pid!) - ticks));
  return result;
}

/**
 * Each URL loaded in ROUNDS interleaved rounds (a neighbour's burst falls on both alike): the round of the
 * most req/s of each (its p99), and its server CPU per request averaged over all of its rounds.
 */
async function interleaved(urls: readonly string[], seconds: number, server: Server): Promise<Load[]> {
  const rounds: Load[][] = urls.map(() => []);
  for (let round = 0; round < ROUNDS; round++)
    for (const [i, url] of urls.entries()) rounds[i]!.push(await quietLoad(url, seconds, server));
  return rounds.map((runs) => ({
    ...runs.reduce((best, run) => (run.rps > best.rps ? run : best)),
    cpuMicros: runs.reduce((sum, run) => sum + run.cpuMicros, 0) / runs.length,
  }));
}

export async function versionSection(seconds: number): Promise<void> {
  const corpus = await buildCorpus(CORPUS_SIZE, (line) => console.error(line));
  const dir = await mkdtemp(join(tmpdir(), 'bench-versions-'));
  const snapshot = join(dir, 'corpus.snapshot');
  const rows: Array<Record<string, string | number>> = [];
  const check = (measure: string, value: number, limit?: number) => {
    rows.push({
      measure,
      value,
      target: limit === undefined ? '' : `<= ${limit}`,
      met: limit === undefined ? '' : value <= limit ? 'yes' : 'NO',
    });
    console.error(`  ${measure}: ${value}`);
  };
  try {
    await runCli(['import', corpus.path, '--out', snapshot, '--last-verified', '2026-11-23']);
    const server = await inspectedServer([...NODE_FLAGS, BIN, 'serve', ...SERVE_OPTIONS, '--records', snapshot]);
    await untilLine(server, /search index ready/);
    // Before, after a full collection (the search index's build leaves garbage that a later one would take
    // out of the figures after it): the rows read at once then count the version work's own garbage.
    const before = await collectedRssMb(server);
    const started = performance.now();
    const first = await fetch(`${server.url}/api/v1/cve-records?${LIST}`);
    const { pagination } = (await first.json()) as { pagination: { total: number } };
    check("first version query, the kernel's ranges built in steps (s)", (performance.now() - started) / 1000);
    check(
      "resident memory the first version query adds (MB, VmRSS after it, which builds the kernel's ranges, minus before)",
      memoryMb(server.child.pid!, 'VmRSS') - before,
    );
    const deep = await pageCursor(server, LIST, DEEP_PAGE);
    const [page1, page100] = (await interleaved(
      [`${server.url}/api/v1/cve-records?${LIST}`, `${server.url}/api/v1/cve-records?${LIST}&cursor=${encodeURIComponent(deep)}`],
      seconds,
      server,
    )) as [Load, Load];
    check(`list ${LIST}, page 1, p99 (ms; ${pagination.total.toLocaleString('en')} records match)`, page1.p99, 5);
    check(`list ${LIST}, page ${DEEP_PAGE}, p99 (ms)`, page100.p99, 5);
    check(`page ${DEEP_PAGE} / page 1, req/s`, page100.rps / page1.rps);
    check(`list ${LIST}, page 1, server CPU per request (µs)`, page1.cpuMicros);
    check(`list ${LIST}, page ${DEEP_PAGE}, server CPU per request (µs)`, page100.cpuMicros);
    // "As fast within 10%", in the server's CPU per request: whole microseconds of a process's own time.
    check(`page ${DEEP_PAGE} / page 1, server CPU per request`, page100.cpuMicros / page1.cpuMicros, 1.1);
    const typical = await batchLatencies(server, { queries: await judgedPairs(server) }, BATCH_ROUNDS);
    check('batch check of 100 judged (project, version) pairs, p50 (ms)', typical.p50);
    check('batch check of 100 judged (project, version) pairs, p99 (ms)', typical.p99, 50);
    check('batch check of 100 judged (project, version) pairs, server CPU per batch (ms)', typical.cpuMs);
    const worst = {
      queries: Array.from({ length: 100 }, (_, i) => ({ project: 'Linux', version: `${'9.'.repeat(60)}${i}` })),
      includeUnknown: true,
    };
    const slowest = await batchLatencies(server, worst, 3);
    check('worst batch: 100 distinct checks of the largest project, unknowns too, slowest (ms)', slowest.max);
    // Each project's ranges are built when it is first asked about: after long enough, every one is.
    const projects = await everyProject(server);
    for (let n = 0; n < projects.length; n += 100)
      await post(server, { queries: projects.slice(n, n + 100).map((project) => ({ project, version: '1.0' })) });
    check(
      `resident memory the version data adds once every project was asked about (MB, VmRSS minus before; ${projects.length.toLocaleString('en')} projects)`,
      memoryMb(server.child.pid!, 'VmRSS') - before,
    );
    check(
      'the same after a full collection, before and after (MB): what the version data holds',
      (await collectedRssMb(server)) - before,
      60,
    );
    await server.stop();
    console.log(
      heading(`Version queries at ${CORPUS_SIZE.toLocaleString('en')} records (snapshot file; autocannon, 16 connections, ${seconds} s)`),
    );
    console.log(table(rows));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
