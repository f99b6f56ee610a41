// Load from outside: wrk (C) in its own process, pinned to its own core, with the server under test pinned
// to another, so the load generator never competes with the server for a core. Installed from Debian when
// missing, as is nginx, the static-file reference.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isNoisy, processTicks, type Quietness, record, watchQuietness } from './noise.js';
import { cpuSeconds, type Server } from './support.js';

export interface WrkLoad {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** CPU time the server process spent per request, in microseconds. */
  cpuMicros: number;
  /** How quiet the machine was during the measured seconds (noise.ts). */
  quietness: Quietness;
}

const CONNECTIONS = 50;

/** Two cores or more: the server on core 0, wrk on core 1. One core: nothing to pin. */
export const PINNED = cpus().length >= 2;

function has(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Installs wrk and nginx from Debian if either is missing; returns what it installed. */
export function ensureTools(): string[] {
  const missing = ['wrk', 'nginx'].filter((tool) => !has(tool) && !has(`/usr/sbin/${tool}`));
  if (missing.length > 0) execFileSync('apt-get', ['install', '-y', ...missing], { stdio: 'ignore' });
  return missing;
}

/** Pins every thread of a process to core 0 (the server's core). */
export function pinServer(pid: number): void {
  if (PINNED) execFileSync('taskset', ['-a', '-pc', '0', String(pid)], { stdio: 'ignore' });
}

/** Lets a pinned process run on every core again. */
export function unpinServer(pid: number): void {
  if (PINNED) execFileSync('taskset', ['-a', '-pc', `0-${cpus().length - 1}`, String(pid)], { stdio: 'ignore' });
}

/** Milliseconds from wrk's `1.23ms`, `456.00us`, `1.02s`. */
function millis(text: string): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text);
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

/** wrk's report, and the clock ticks wrk used (sampled every 100 ms until it exits: the last tenth of a second is lost). */
function runWrk(url: string, seconds: number, script?: string): Promise<{ output: string; ticks: number }> {
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', ...(script ? ['-s', script] : []), url];
  // taskset execs wrk in the same process, so the pid is wrk's.
  const [command, argv] = PINNED ? ['taskset', ['-c', '1', 'wrk', ...args]] : ['wrk', args];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv as string[], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    let ticks = 0;
    const sampler = setInterval(() => {
      ticks = Math.max(ticks, processTicks(child.pid!));
    }, 100);
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', (code) => {
      clearInterval(sampler);
      if (code === 0) resolve({ output, ticks });
      else reject(new Error(`wrk exited ${code}:\n${output}`));
    });
  });
}

/**
 * A wrk script asking for `paths` in turn, so a load spreads over many records instead of one (whose size
 * may be anything but typical).
 */
export async function rotatingPaths(paths: readonly string[]): Promise<string> {
  const script = join(await mkdtemp(join(tmpdir(), 'bench-wrk-')), 'paths.lua');
  await writeFile(
    script,
    `local paths = {${paths.map((path) => JSON.stringify(path)).join(',')}}\nlocal i = 0\n` +
      'request = function()\n  i = i % #paths + 1\n  return wrk.format(nil, paths[i])\nend\n',
  );
  return script;
}

/** Called right before and right after the measured seconds (the warm-up second excluded). */
export interface MeasuredWindow {
  start(): Promise<void>;
  end(): Promise<void>;
}

/**
 * One warm-up second, then `seconds` of load at 50 connections; the server's CPU from /proc. With a
 * `script` (rotatingPaths), its paths on `url`'s server.
 */
export async function wrkLoad(url: string, seconds: number, pid: number, script?: string, window?: MeasuredWindow): Promise<WrkLoad> {
  await runWrk(url, 1, script);
  await window?.start();
  const cpuBefore = cpuSeconds(pid);
  const watch = watchQuietness();
  const { output, ticks } = await runWrk(url, seconds, script);
  const cpu = cpuSeconds(pid) - cpuBefore;
  await window?.end();
  const quietness = watch.finish(cpu * 100 + ticks);
  record(quietness);
  if (isNoisy(quietness)) {
    console.warn(
      `(noisy: load average ${quietness.loadBefore.toFixed(2)} -> ${quietness.loadAfter.toFixed(2)}, others held ${(quietness.othersCoreShare * 100).toFixed(0)}% of a core during ${url})`,
    );
  }
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1]);
  const total = Number(/(\d+) requests in/.exec(output)?.[1]);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const percentile = (p: string) => millis(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(output)?.[1] ?? '');
  return {
    rps,
    p50: percentile('50'),
    p99: percentile('99'),
    non2xx: non2xx + (errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0),
    cpuMicros: (cpu / total) * 1e6,
    quietness,
  };
}

/** nginx (one worker, no access log) serving `body` as a static JSON file; the reference of what a server can do. */
export async function staticNginx(body: Buffer): Promise<Server & { pid: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-nginx-'));
  await writeFile(join(dir, 'record.json'), body);
  const port = 20000 + Math.floor(Math.random() * 20000);
  await writeFile(
    join(dir, 'nginx.conf'),
    `worker_processes 1;\ndaemon off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\n` +
      `events { worker_connections 1024; }\n` +
      `http { access_log off; default_type application/json; client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};\n` +
      `  server { listen 127.0.0.1:${port}; root ${dir}; } }\n`,
  );
  const child = spawn(has('nginx') ? 'nginx' : '/usr/sbin/nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 500));
  // The worker is nginx's only child; pin master and worker alike.
  const worker = Number(
    execFileSync('pgrep', ['-P', String(child.pid)])
      .toString()
      .trim()
      .split('\n')[0],
  );
  pinServer(child.pid!);
  pinServer(worker);
  return {
    url: `http://127.0.0.1:${port}/record.json`,
    child,
    pid: worker,
    stop: () =>
      new Promise((done) => {
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * One row of a wrk table measured against a baseline of the same run (`against` names it): throughput and
 * CPU per request as ratios, the p99 ratio too when asked, and whether a throughput target is met.
 */
export function ratioRow(name: string, r: WrkLoad, baseline: WrkLoad, against: string, target?: number, withP99 = false) {
  return {
    case: name,
    'req/s': Math.round(r.rps),
    'p50 ms': r.p50,
    'p99 ms': r.p99,
    [`req/s ratio to ${against}`]: r.rps / baseline.rps,
    ...(withP99 ? { [`p99 ratio to ${against}`]: r.p99 / baseline.p99 } : {}),
    'server CPU µs/req': r.cpuMicros,
    [`CPU ratio (${against}/this)`]: baseline.cpuMicros / r.cpuMicros,
    target: target === undefined ? '' : `req/s >= ${target}`,
    met: target === undefined ? '' : r.rps / baseline.rps >= target ? 'yes' : 'NO',
    'non-2xx': r.non2xx,
  };
}
