// Processes and load for the benchmarks: every server runs in its own process, the load generator here.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const BIN = fileURLToPath(new URL('../bin/cve-records.js', import.meta.url));
/** The service's program's first line: `#!/usr/bin/env -S [NAME=value …] node [flags …]`. */
const FIRST_LINE = /^#!\S*env -S((?:\s+\w+=\S*)*)\s+node\b(.*)$/m.exec(readFileSync(BIN, 'utf8'))!;
/** The Node flags the service runs with, from its program's first line, so the benchmarks measure the service as run. */
export const NODE_FLAGS = FIRST_LINE[2]!.trim().split(/\s+/).filter(Boolean);
/** The environment the same line sets for Node (malloc's settings). */
export const NODE_ENV: NodeJS.ProcessEnv = Object.fromEntries(
  FIRST_LINE[1]!
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((setting) => [setting.slice(0, setting.indexOf('=')), setting.slice(setting.indexOf('=') + 1)]),
);

export interface Server {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Spawns a node script and waits for its "Server listening at" line. */
export function spawnServer(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Server> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...NODE_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return listeningServer(child, 'SIGTERM', 'server');
}

/** The server `child` runs, once it prints "Server listening at"; `stop` sends it `stopSignal`. */
export function listeningServer(child: ChildProcess, stopSignal: NodeJS.Signals, what: string): Promise<Server> {
  // The last 8 KB only: a server under valgrind writes a lot before it listens.
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
            child.kill(stopSignal);
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}):\n${output}`)));
  });
}

/** Resolves when the server prints a line matching `pattern` (on either stream), from now on. */
export function untilLine(server: Server, pattern: RegExp): Promise<void> {
  return new Promise((resolve) => {
    let tail = '';
    const onData = (chunk: Buffer): void => {
      tail = (tail + chunk.toString()).slice(-4096);
      if (!pattern.test(tail)) return;
      server.child.stdout!.off('data', onData);
      server.child.stderr!.off('data', onData);
      resolve();
    };
    server.child.stdout!.on('data', onData);
    server.child.stderr!.on('data', onData);
  });
}

/** `serve` options of every benchmark: a free port, the limiter on but its limit out of the way, a fixed cursor secret. */
export const SERVE_OPTIONS = ['--port', '0', '--rate-limit-max', '1000000', '--cursor-secret', 'bench'];

/** The service on a free port, the limit out of the way, with the given options. */
export function serve(args: string[]): Promise<Server> {
  // Request logging stays on (info, one line per request): it is part of what the service costs.
  return spawnServer([...NODE_FLAGS, BIN, 'serve', ...SERVE_OPTIONS, ...args]);
}

export function serveCatalog(records: string, extra: string[] = []): Promise<Server> {
  return serve(['--records', records, ...extra]);
}

export interface Run {
  code: number;
  stdout: string;
  seconds: number;
  peakMb: number;
}

export function memoryMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const match = new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) / 1024;
}

/** Runs the CLI to its end (an error unless it exits 0), sampling its peak resident memory every 20 ms. */
export async function runCli(args: string[]): Promise<Run> {
  const started = performance.now();
  const child = spawn(process.execPath, [...NODE_FLAGS, BIN, ...args], {
    env: { ...process.env, ...NODE_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  let peakMb = 0;
  const sampler = setInterval(() => {
    try {
      peakMb = Math.max(peakMb, memoryMb(child.pid!, 'VmHWM'));
    } catch {
      // it has just exited
    }
  }, 20);
  const code = await new Promise<number>((resolve) => child.once('exit', (exitCode) => resolve(exitCode ?? 1)));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`cve-records ${args.join(' ')} exited ${code}:\n${stderr.slice(-2000)}`);
  return { code, stdout, seconds: (performance.now() - started) / 1000, peakMb };
}

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** CPU time the server process spent per request, in microseconds: its cost, whatever the load generator's. */
  cpuMicros: number;
}

/** User + system CPU seconds a process has used so far, from /proc (Linux). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

export async function load(url: string, seconds: number, server: Server, options: Partial<autocannon.Options> = {}): Promise<Load> {
  await autocannon({ url, duration: 1, connections: 16 }); // warm-up
  const cpuBefore = cpuSeconds(server.child.pid!);
  const result = await autocannon({ url, duration: seconds, connections: 16, ...options });
  const cpu = cpuSeconds(server.child.pid!) - cpuBefore;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
    cpuMicros: (cpu / result.requests.total) * 1e6,
  };
}

export function table(rows: Array<Record<string, string | number>>): string {
  const keys = Object.keys(rows[0] ?? {});
  const cell = (v: string | number) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : v);
  return [
    `| ${keys.join(' | ')} |`,
    `| ${keys.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${keys.map((k) => cell(r[k]!)).join(' | ')} |`),
  ].join('\n');
}
