// PostgreSQL and Redis servers of the test run's own: each in a temporary folder, on a free loopback port,
// keeping nothing. stop() ends one and removes its folder; a run that ends any other way (a failure,
// Ctrl-C) kills what is left and removes it on exit, and a run that is killed takes them with it (setpriv's
// parent-death signal). PostgreSQL refuses to run as root: as root, it runs as Debian's `postgres` user.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { ensureDebianPackage, onPath } from './debian-packages.js';

export interface ThrowawayService {
  readonly url: string;
  readonly port: number;
  /** The server's process (a new one after restart()). */
  readonly child: ChildProcess;
  /** Ends the server and removes its folder. */
  stop(): Promise<void>;
  /** Ends the server as its own fast shutdown does and starts it again on the same folder and port, keeping its data. */
  restart(): Promise<void>;
}

const running = new Set<{ child: ChildProcess; folder: string }>();
process.once('exit', () => {
  for (const { child, folder } of running) {
    child.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true, maxRetries: 5 });
  }
});

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.once('error', reject);
  });
}

const isRoot = () => process.getuid?.() === 0;

/** The user a server runs as: PostgreSQL's own when this is root, else this one. */
function serverUser(needsNonRoot: boolean): { uid: number; gid: number } | undefined {
  if (!needsNonRoot || !isRoot()) return undefined;
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error(
      "PostgreSQL does not run as root, and this machine has no `postgres` user to run it as (Debian's postgresql package creates one).",
    );
  }
}

/** Runs `command` as `user`, killed when this process dies. */
function spawnServer(command: string, args: string[], user: { uid: number; gid: number } | undefined): ChildProcess {
  const setpriv = onPath('setpriv');
  if (!setpriv && user) throw new Error('setpriv (util-linux) is needed to run PostgreSQL as its own user.');
  const prefix = setpriv
    ? ['setpriv', ...(user ? [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups'] : []), '--pdeathsig=KILL', '--']
    : [];
  const [file, ...rest] = [...prefix, command, ...args];
  return spawn(file!, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
}

async function start(
  name: string,
  launch: () => ChildProcess,
  folder: string,
  port: number,
  url: string,
  ready: () => Promise<void>,
): Promise<ThrowawayService> {
  const entry = { child: launch(), folder };
  running.add(entry);
  let output = '';
  let exited = Promise.resolve();
  const watch = (child: ChildProcess) => {
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  };
  watch(entry.child);
  const end = async () => {
    const { child } = entry;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT'); // PostgreSQL's fast shutdown; Redis stops on it too
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
  };
  const stop = async () => {
    await end();
    rmSync(folder, { recursive: true, force: true, maxRetries: 5 });
    running.delete(entry);
  };
  const answering = async () => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { child } = entry;
      if (child.exitCode !== null || child.signalCode !== null) {
        await stop();
        throw new Error(`the throwaway ${name} stopped before it answered:\n${output}`);
      }
      try {
        return await ready();
      } catch (error) {
        if (Date.now() > deadline) {
          await stop();
          throw new Error(`the throwaway ${name} did not answer within a minute (${(error as Error).message}):\n${output}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  const restart = async () => {
    await end();
    entry.child = launch();
    watch(entry.child);
    await answering();
  };
  await answering();
  return {
    url,
    port,
    get child() {
      return entry.child;
    },
    stop,
    restart,
  };
}

/**
 * The folder of PostgreSQL's server binaries: on PATH (most systems), else Debian's
 * /usr/lib/postgresql/<major>/bin, newest major first. Debian's postgresql package is installed when
 * there is neither.
 */
function postgresBinaries(): string {
  const debian = '/usr/lib/postgresql';
  const find = (): string | undefined => {
    if (onPath('initdb') && onPath('postgres')) return '';
    if (!existsSync(debian)) return undefined;
    return readdirSync(debian)
      .filter((major) => /^\d+$/.test(major))
      .sort((a, b) => Number(b) - Number(a))
      .map((major) => join(debian, major, 'bin'))
      .find((bin) => existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'postgres')));
  };
  ensureDebianPackage("PostgreSQL's server (initdb, postgres)", 'postgresql', () => find() !== undefined);
  return find()!;
}

/** A PostgreSQL server with trust authentication; `url` names its `postgres` database as user `postgres`. */
export async function startPostgres(): Promise<ThrowawayService> {
  const bin = postgresBinaries();
  const user = serverUser(true);
  const folder = mkdtempSync(join(tmpdir(), 'public-cve-records-postgres-'));
  if (user) chownSync(folder, user.uid, user.gid);
  const data = join(folder, 'data');
  const initdb = spawnServer(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync'], user);
  let initOutput = '';
  initdb.stdout!.on('data', (chunk: Buffer) => (initOutput += chunk));
  initdb.stderr!.on('data', (chunk: Buffer) => (initOutput += chunk));
  const code = await new Promise<number | null>((resolve) => initdb.once('exit', resolve));
  if (code !== 0) {
    rmSync(folder, { recursive: true, force: true });
    throw new Error(`initdb failed (exit ${code}):\n${initOutput}`);
  }
  const port = await freePort();
  // Loopback TCP only (no socket in the machine's socket folder); nothing the tests write needs to last.
  const settings = [
    'listen_addresses=127.0.0.1',
    'unix_socket_directories=',
    'fsync=off',
    'synchronous_commit=off',
    'full_page_writes=off',
  ];
  const launch = () => spawnServer(join(bin, 'postgres'), ['-D', data, '-p', String(port), ...settings.flatMap((s) => ['-c', s])], user);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return start('PostgreSQL', launch, folder, port, url, async () => {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
    } finally {
      await client.end().catch(() => undefined);
    }
  });
}

/** A Redis server that keeps nothing on disk, on `port` or a free one. */
export async function startRedis(port?: number): Promise<ThrowawayService> {
  ensureDebianPackage('redis-server', 'redis-server', () => onPath('redis-server'));
  const folder = mkdtempSync(join(tmpdir(), 'public-cve-records-redis-'));
  const chosen = port ?? (await freePort());
  const args = ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', folder];
  const launch = () => spawnServer('redis-server', args, undefined);
  return start('Redis', launch, folder, chosen, `redis://127.0.0.1:${chosen}`, async () => {
    const probe = new Redis(chosen, '127.0.0.1', { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    probe.on('error', () => {}); // refused until the server is up: start() asks again
    try {
      await probe.connect();
      await probe.ping();
    } finally {
      probe.disconnect();
    }
  });
}
