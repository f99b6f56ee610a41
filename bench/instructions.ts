// Instructions per request, counted by valgrind's callgrind: the one measure a busy machine cannot move
// (the same requests run the same instructions however many other processes share the cores). The server
// runs under callgrind with instrumentation off while it starts and warms up (a few times slower than
// native, not fifty), then, per case: instrumentation on, a few hundred requests to settle, counters
// zeroed, `requests` requests, counters dumped. Counts include everything the process runs for them: the
// JavaScript, V8's compiler and garbage collector threads, Node's C++ and libuv, not the kernel.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { Server } from './support.js';

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
    ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${join(outDir, 'callgrind.out.%p')}`, process.execPath, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-8192);
      const match = /Server listening at (http:\/\/[^\s",]+)/.exec(output);
      if (!match) return;
      child.stdout!.off('data', onData);
      child.stderr!.off('data', onData);
      child.stdout!.resume();
      child.stderr!.resume();
      resolve({
        url: match[1]!,
        child,
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill('SIGKILL');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server under callgrind exited (${code}):\n${output}`)));
  });
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

/** The `totals:` line of the newest callgrind dump in `dir`. */
async function lastTotal(dir: string): Promise<number> {
  const dumps = (await readdir(dir)).filter((name) => /^callgrind\.out\.\d+\.\d+$/.test(name));
  const newest = dumps.sort((a, b) => Number(a.split('.').at(-1)) - Number(b.split('.').at(-1))).at(-1);
  if (!newest) throw new Error('callgrind wrote no dump');
  const total = /^totals:\s+(\d+)/m.exec(await readFile(join(dir, newest), 'utf8'));
  if (!total) throw new Error(`no totals in ${newest}`);
  return Number(total[1]);
}

/**
 * Instructions per request of each case against the server `node <args>` starts (it must print
 * "Server listening at <url>"), in the order given.
 */
export async function instructionsPerRequest(args: string[], cases: readonly InstructionCase[]): Promise<Map<string, number>> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-callgrind-'));
  const server = await spawnUnderCallgrind(args, dir);
  const pid = server.child.pid!;
  const counts = new Map<string, number>();
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
      counts.set(name, (await lastTotal(dir)) / REQUESTS);
    }
  } finally {
    await server.stop();
  }
  return counts;
}
