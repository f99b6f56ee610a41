// Instructions per request, counted by valgrind's callgrind: the one measure a busy machine cannot move
// (the same requests run the same instructions however many other processes share the cores). The server
// runs under callgrind with instrumentation off while it starts and warms up (a few times slower than
// native, not fifty), then, per case: instrumentation on, a few hundred requests to settle, counters
// zeroed, `requests` requests, counters dumped. Counted per thread: the main thread runs the requests
// (JavaScript, Node's C++ and libuv, V8's young-generation collections; not the kernel), the others V8's
// concurrent marking and compiling, which come in lumps: one major collection of a served catalog's heap
// in the window doubled a get-one's count. The main thread's count is the figure; all threads' beside it.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { listeningServer, type Server } from './support.js';

export const HAS_CALLGRIND = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v valgrind && command -v callgrind_control'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

export interface InstructionCase {
  readonly name: string;
  readonly path: string;
}

const WARMUP = Number(process.env.BENCH_INSTRUCTION_WARMUP ?? 3000);
const SETTLE = 200;
const REQUESTS = Number(process.env.BENCH_INSTRUCTION_REQUESTS ?? 1000);
/** As wrk's connections are kept alive and busy, a few connections kept busy; few, for valgrind's one thread at a time. */
const CONNECTIONS = 4;

/** `node <args>` under callgrind, instrumentation off, once it prints "Server listening at". */
function spawnUnderCallgrind(args: string[], outDir: string): Promise<Server> {
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      '--separate-threads=yes',
      `--callgrind-out-file=${join(outDir, 'callgrind.out.%p')}`,
      process.execPath,
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return listeningServer(child, 'SIGKILL', 'server under callgrind');
}

function control(pid: number, ...args: string[]): void {
  execFileSync('callgrind_control', [...args, String(pid)], { stdio: 'ignore' });
}

/** `amount` requests; with `strict`, an error unless every one is a 2xx (a failure runs other code). */
async function requests(url: string, amount: number, strict: boolean): Promise<void> {
  // Under valgrind, and more so on a busy machine, an answer can take seconds: no request is given up on.
  const result = await autocannon({ url, amount, connections: CONNECTIONS, timeout: 600 });
  const failed = result.errors + result.timeouts + result.non2xx;
  if (strict && failed > 0) throw new Error(`${url}: ${failed} of ${amount} requests failed under callgrind`);
}

export interface Instructions {
  /** On the main thread, which runs the requests. */
  readonly main: number;
  /** On every thread, V8's concurrent collector and compilers included. */
  readonly all: number;
}

/** The `totals:` of the newest callgrind dump in `dir`, one file per thread (`callgrind.out.<pid>.<dump>-<thread>`). */
async function lastTotals(dir: string): Promise<Instructions> {
  const dumps = (await readdir(dir)).flatMap((name) => {
    const match = /^callgrind\.out\.\d+\.(\d+)-(\d+)$/.exec(name);
    return match ? [{ name, dump: Number(match[1]), thread: Number(match[2]) }] : [];
  });
  const newest = Math.max(...dumps.map(({ dump }) => dump));
  if (!Number.isFinite(newest)) throw new Error('callgrind wrote no dump');
  let main = 0;
  let all = 0;
  for (const { name, dump, thread } of dumps) {
    if (dump !== newest) continue;
    const total = /^totals:\s+(\d+)/m.exec(await readFile(join(dir, name), 'utf8'));
    if (!total) throw new Error(`no totals in ${name}`);
    all += Number(total[1]);
    if (thread === 1) main = Number(total[1]);
  }
  return { main, all };
}

/**
 * Instructions per request of each case against the server `node <args>` starts (it must print
 * "Server listening at <url>"), in the order given.
 */
export async function instructionsPerRequest(args: string[], cases: readonly InstructionCase[]): Promise<Map<string, Instructions>> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-callgrind-'));
  const server = await spawnUnderCallgrind(args, dir);
  const pid = server.child.pid!;
  const counts = new Map<string, Instructions>();
  try {
    // Every case warmed up first, uninstrumented (V8 optimizes what the requests run), then counted.
    for (const { path } of cases) await requests(`${server.url}${path}`, WARMUP, false);
    control(pid, '--instr=on');
    for (const { name, path } of cases) {
      const url = `${server.url}${path}`;
      await requests(url, SETTLE, false);
      control(pid, '--zero');
      await requests(url, REQUESTS, true);
      control(pid, '--dump');
      const { main, all } = await lastTotals(dir);
      counts.set(name, { main: main / REQUESTS, all: all / REQUESTS });
    }
  } finally {
    await server.stop();
  }
  return counts;
}
