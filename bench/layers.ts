// `npm run bench layers`: what each of the edge's layers costs the hot requests. The same get-one, list
// (limit=20) and details requests against servers built by the service's own code (buildServer) with the
// edge's layers added one at a time, from the REST routes alone to the served server, beside a bare Fastify
// server sending the same get-one bytes. Each server pinned to core 0, wrk to core 1, interleaved rounds,
// best of ROUNDS; then the same requests counted in instructions under callgrind (instructions.ts), which
// no neighbour can disturb. `npm run bench instructions` counts instructions only: bare against served.
import { createWriteStream } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EDGE_LAYERS, type EdgeLayer } from '../src/http/server.js';
import { HAS_CALLGRIND, type InstructionCase, type Instructions, instructionsPerRequest } from './instructions.js';
import { heading } from './noise.js';
import { NODE_FLAGS, SERVE_OPTIONS, type Server, spawnServer, table } from './support.js';
import { syntheticRecord, writeSyntheticCatalog } from './synthetic-catalog.js';
import { ensureTools, type MeasuredWindow, PINNED, pinServer, type WrkLoad, wrkLoad } from './wrk.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** The issue 17 and 29 catalog size; smaller to try the benchmark out. */
const RECORDS = Number(process.env.BENCH_RECORDS ?? 340_000);
/**
 * Instructions are counted on a smaller catalog: a server starts under valgrind several times slower, and
 * what a hot request runs does not grow with the catalog (a hash look-up, a binary search).
 */
const INSTRUCTION_RECORDS = Number(process.env.BENCH_INSTRUCTION_RECORDS ?? 20_000);

const LAYERS_SERVER = new URL('./layers-server.mjs', import.meta.url).pathname;
const BARE_SERVER = new URL('./bare-server.mjs', import.meta.url).pathname;
/** Preloaded into the servers measured by wrk: their collections, counted (gc-counts.mjs). */
const GC_COUNTS = ['--import', new URL('./gc-counts.mjs', import.meta.url).pathname];
/**
 * BENCH_TRACE_GC=DIR: the servers measured by wrk also write V8's `--trace-gc` lines, each to DIR/<row>.log,
 * which say why each full collection ran (a row's count alone does not tell the memory reducer of an idle
 * server from an old generation filled by requests; docs/PERFORMANCE.md, "The served server's collections,
 * stop 37").
 */
const TRACE_GC = process.env.BENCH_TRACE_GC;

interface Step {
  readonly name: string;
  /** The layers on, or `bare` for the bare Fastify server (get-one's bytes on every path). */
  readonly layers: readonly EdgeLayer[] | 'bare';
}

const STEP_NAMES: Record<EdgeLayer, string> = {
  headers: '+ security and CORS headers',
  'client-address': '+ client address',
  'rate-limit': '+ rate limit (in process)',
  caching: '+ caching (ETag, 304)',
  'request-log': '+ request log (and the logger)',
  rest: '+ the rest = the served server',
};

/** Bare Fastify, the REST routes alone, then one more layer at a time, in EDGE_LAYERS' order. */
const STEPS: readonly Step[] = [
  { name: 'bare Fastify, the same get-one bytes', layers: 'bare' },
  { name: 'REST routes alone (no edge)', layers: [] },
  ...EDGE_LAYERS.map((layer, i) => ({ name: STEP_NAMES[layer], layers: EDGE_LAYERS.slice(0, i + 1) })),
];
const SERVED = STEPS.at(-1)!;
const BARE = STEPS[0]!;

type CaseName = 'get-one' | 'list' | 'details';
function cases(): Record<CaseName, string> {
  const id = syntheticRecord(1).id;
  return { 'get-one': `/api/v1/cve-records/${id}`, list: '/api/v1/cve-records?limit=20', details: `/api/v1/cve-records/${id}/details` };
}

async function catalogOf(records: number): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'bench-layers-')), `catalog-${records}.json`);
  await writeSyntheticCatalog(file, records, { details: true });
  return file;
}

/** The bare server's file: the served server's get-one answer, so both send the same bytes. */
async function getOneBytes(catalog: string): Promise<string> {
  const served = await spawnServer(serverArgs(SERVED, catalog, ''));
  const body = Buffer.from(await (await fetch(`${served.url}${cases()['get-one']}`)).arrayBuffer());
  await served.stop();
  const file = join(await mkdtemp(join(tmpdir(), 'bench-layers-')), 'record.json');
  await writeFile(file, body);
  return file;
}

/** Under callgrind a server is slow enough for the default timeouts to cut clients off: longer ones there (headers at most the 30 s request timeout). */
const PATIENT = ['--headers-timeout', '30', '--keep-alive-timeout', '600'];

/**
 * Under wrk, each server counts its collections and collects what its start left before it listens
 * (layers-server.mjs); under callgrind (`patient`), neither, so counts compare with earlier runs.
 */
function serverArgs(step: Step, catalog: string, bareFile: string, patient = false): string[] {
  if (step.layers === 'bare') return [...(patient ? [] : GC_COUNTS), BARE_SERVER, bareFile];
  const layers = step.layers.length === 0 ? 'none' : step.layers.join(',');
  const flags = patient ? NODE_FLAGS : [...NODE_FLAGS, '--expose-gc', ...GC_COUNTS, ...(TRACE_GC ? ['--trace-gc'] : [])];
  return [...flags, LAYERS_SERVER, layers, ...SERVE_OPTIONS, '--records', catalog, ...(patient ? PATIENT : [])];
}

interface GcCounts {
  young: number;
  youngMs: number;
  full: number;
  fullMs: number;
}

/** The server's collections so far (gc-counts.mjs answers SIGUSR2 with a line on stderr). */
function gcCounts(server: Server): Promise<GcCounts> {
  return new Promise((resolve) => {
    let tail = '';
    const onData = (chunk: Buffer) => {
      tail += chunk;
      const match = /gc-counts (\{.*\})\n/.exec(tail);
      if (!match) return;
      server.child.stderr!.off('data', onData);
      resolve(JSON.parse(match[1]!));
    };
    server.child.stderr!.on('data', onData);
    server.child.kill('SIGUSR2');
  });
}

/** The collections in a measured window, for its row. */
function gcWindow(server: Server): MeasuredWindow & { counted: () => GcCounts } {
  let before: GcCounts | undefined;
  let after: GcCounts | undefined;
  return {
    start: async () => {
      before = await gcCounts(server);
    },
    end: async () => {
      after = await gcCounts(server);
    },
    counted: () => ({
      young: after!.young - before!.young,
      youngMs: after!.youngMs - before!.youngMs,
      full: after!.full - before!.full,
      fullMs: after!.fullMs - before!.fullMs,
    }),
  };
}

/** The paths a step is measured on: the bare server has get-one only. */
function casesOf(step: Step): CaseName[] {
  return step.layers === 'bare' ? ['get-one'] : ['get-one', 'list', 'details'];
}

type Figures = Map<Step, Partial<Record<CaseName, WrkLoad & { gc: GcCounts }>>>;
type Counts = Map<Step, Map<string, Instructions>>;

async function measureThroughput(catalog: string, bareFile: string): Promise<Figures> {
  const servers = new Map<Step, Server>();
  try {
    for (const step of STEPS) {
      const server = await spawnServer(serverArgs(step, catalog, bareFile));
      if (TRACE_GC) server.child.stdout!.pipe(createWriteStream(join(TRACE_GC, `${STEPS.indexOf(step)}.log`)));
      pinServer(server.child.pid!);
      servers.set(step, server);
    }
    const best: Figures = new Map(STEPS.map((step) => [step, {}]));
    const paths = cases();
    for (let round = 0; round < ROUNDS; round++) {
      for (const step of STEPS) {
        const server = servers.get(step)!;
        for (const name of casesOf(step)) {
          const path = step.layers === 'bare' ? '/' : paths[name];
          const window = gcWindow(server);
          const result = await wrkLoad(`${server.url}${path}`, SECONDS, server.child.pid!, undefined, window);
          const kept = best.get(step)!;
          if (!kept[name] || result.rps > kept[name].rps) kept[name] = { ...result, gc: window.counted() };
        }
      }
    }
    return best;
  } finally {
    await Promise.all([...servers.values()].map((server) => server.stop()));
  }
}

async function countInstructions(steps: readonly Step[], catalog: string, bareFile: string): Promise<Counts> {
  const paths = cases();
  const counts: Counts = new Map();
  for (const step of steps) {
    const measured: InstructionCase[] = casesOf(step).map((name) => ({ name, path: step.layers === 'bare' ? '/' : paths[name] }));
    counts.set(step, await instructionsPerRequest(serverArgs(step, catalog, bareFile, true), measured));
  }
  return counts;
}

const thousands = (n: number | undefined) => (n === undefined ? '' : Math.round(n / 1000));

function caseTable(name: CaseName, figures: Figures | undefined, counts: Counts | undefined): string {
  const bare = figures?.get(BARE)?.['get-one'];
  const bareInstructions = counts?.get(BARE)?.get('get-one')?.main;
  let previous: number | undefined;
  const measured = (step: Step) => figures?.get(step)?.[name] !== undefined || counts?.get(step)?.has(name) === true;
  const rows = STEPS.filter(measured).map((step) => {
    const load = figures?.get(step)?.[name];
    const counted = counts?.get(step)?.get(name);
    const instructions = counted?.main;
    const row: Record<string, string | number> = { layers: step.name };
    if (load && bare) {
      row['req/s'] = Math.round(load.rps);
      row['req/s ratio to bare'] = load.rps / bare.rps;
      row['p99 ms'] = load.p99;
      row['server CPU µs/req'] = load.cpuMicros;
      row['CPU ratio (bare/this)'] = bare.cpuMicros / load.cpuMicros;
      const requests = load.rps * SECONDS;
      row['young / full GCs per 100k req'] =
        `${Math.round((load.gc.young / requests) * 1e5)} / ${((load.gc.full / requests) * 1e5).toFixed(1)}`;
      row['GC pauses µs/req'] = ((load.gc.youngMs + load.gc.fullMs) / requests) * 1000;
    }
    if (instructions !== undefined) {
      row['instructions/req, main thread (thousands)'] = thousands(instructions);
      row['all threads (thousands)'] = thousands(counted?.all);
      row['this layer (thousands)'] = previous === undefined || step === BARE ? '' : thousands(instructions - previous);
      if (bareInstructions) row['instruction ratio (bare/this)'] = bareInstructions / instructions;
      if (step !== BARE) previous = instructions;
    }
    if (load) row['non-2xx'] = load.non2xx;
    return row;
  });
  return table(rows);
}

/** The targets, from the served server's row against bare Fastify's (and details against get-one). */
function targets(figures: Figures | undefined, counts: Counts | undefined): string {
  const lines: string[] = [];
  const check = (what: string, value: number, target: number, atMost = false) =>
    lines.push(
      `- ${what}: ${value.toFixed(2)} (target ${atMost ? '<=' : '>='} ${target}): ${(atMost ? value <= target : value >= target) ? 'met' : 'NOT met'}`,
    );
  const served = figures?.get(SERVED);
  const bare = figures?.get(BARE)?.['get-one'];
  if (served?.['get-one'] && served.list && served.details && bare) {
    check('get-one / bare, req/s', served['get-one'].rps / bare.rps, 0.8);
    check('get-one, CPU per request bare/this', bare.cpuMicros / served['get-one'].cpuMicros, 0.8);
    check('list / bare, req/s', served.list.rps / bare.rps, 0.6);
    check('list, CPU per request bare/this', bare.cpuMicros / served.list.cpuMicros, 0.6);
    check('details / get-one, req/s', served.details.rps / served['get-one'].rps, 0.7);
    check('get-one p99 / bare p99', served['get-one'].p99 / bare.p99, 2, true);
  }
  const counted = counts?.get(SERVED);
  const bareCount = counts?.get(BARE)?.get('get-one')?.main;
  if (counted && bareCount) {
    const main = (name: CaseName) => counted.get(name)!.main;
    check('get-one, instructions per request (main thread) bare/this', bareCount / main('get-one'), 0.8);
    check('list, instructions per request (main thread) bare/this', bareCount / main('list'), 0.6);
    check('details, instructions per request (main thread) get-one/details', main('get-one') / main('details'), 0.7);
  }
  return lines.join('\n');
}

function print(figures: Figures | undefined, counts: Counts | undefined): void {
  const what = [
    figures
      ? `${RECORDS.toLocaleString('en')} records with details, limiter on, wrk 50 connections, best of ${ROUNDS} interleaved rounds of ${SECONDS} s${PINNED ? ', servers on core 0, wrk on core 1' : ', unpinned'}`
      : '',
    counts ? `instructions: callgrind, ${INSTRUCTION_RECORDS.toLocaleString('en')} records` : '',
  ]
    .filter(Boolean)
    .join('; ');
  console.log(heading(`The edge layer by layer (${what})`));
  for (const name of ['get-one', 'list', 'details'] as const) {
    console.log(`\n#### ${name}\n`);
    console.log(caseTable(name, figures, counts));
  }
  console.log(`\n${targets(figures, counts)}`);
}

export async function layersSection(): Promise<void> {
  ensureTools();
  const catalog = await catalogOf(RECORDS);
  const figures = await measureThroughput(catalog, await getOneBytes(catalog));
  let counts: Counts | undefined;
  if (HAS_CALLGRIND && process.env.BENCH_INSTRUCTIONS !== '0') {
    const small = await catalogOf(INSTRUCTION_RECORDS);
    counts = await countInstructions(STEPS, small, await getOneBytes(small));
  } else {
    console.log('\n(valgrind not installed: no instruction counts; `apt-get install -y valgrind` adds them)');
  }
  print(figures, counts);
}

/** Instructions per request only, bare Fastify against the served server: a minute or two, and the same on any machine. */
export async function instructionsSection(): Promise<void> {
  if (!HAS_CALLGRIND) throw new Error('valgrind is not installed (apt-get install -y valgrind)');
  const small = await catalogOf(INSTRUCTION_RECORDS);
  print(undefined, await countInstructions([BARE, SERVED], small, await getOneBytes(small)));
}
