// The deployment docs/OPERATIONS.md describes, started on loopback ports for a test or a benchmark: three
// `serve` replicas on one PostgreSQL behind HAProxy (deploy/haproxy.cfg, the file itself), Redis for the
// shared rate limit, one `sync --follow` from a simulated upstream (a folder the test writes releases
// into). Replica 1 reaches PostgreSQL through a relay the test can cut. PostgreSQL and Redis are throwaway
// servers (test/support/throwaway-services.ts); HAProxy is Debian's, installed when missing.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { request } from 'undici';
import { runCli } from '../cli.js';
import { ensureDebianPackage, onPath } from '../debian-packages.js';
import { repositoryPath } from '../paths.js';
import { freePort, startPostgres, startRedis, type ThrowawayService } from '../throwaway-services.js';
import { Dataset, type PublishedDelta } from './dataset.js';
import { type Process, spawnCli, spawnProcess } from './processes.js';
import { startTcpRelay, type TcpRelay } from './tcp-relay.js';

export const HAPROXY_CONFIG = repositoryPath('deploy/haproxy.cfg');
export const REPLICAS = 3;

export interface DeploymentOptions {
  /** Records of the baseline. */
  readonly records: number;
  /** Requests per address per hour: small, so the probes can show how the limit behaves (an hour: none regained meanwhile). */
  readonly rateLimit: number;
  /** How long a replica may take to load the records and listen. */
  readonly startMs: number;
}

export interface Replica {
  readonly name: string;
  readonly port: number;
  readonly url: string;
  process: Process;
}

/** HAProxy: Debian's, installed when missing (as root), found in /usr/sbin off a user's PATH. */
function haproxyBinary(): string {
  const find = () => (onPath('haproxy') ? 'haproxy' : existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : undefined);
  ensureDebianPackage('HAProxy', 'haproxy', () => find() !== undefined);
  return find()!;
}

export class Deployment {
  readonly replicas: Replica[] = [];
  proxy!: Process;
  proxyUrl = '';
  sync!: Process;
  /** Every sync process's output so far (one is killed and replaced in a fault). */
  readonly #syncOutputs: Process[] = [];
  postgres!: ThrowawayService;
  redis!: ThrowawayService;
  relay!: TcpRelay;
  dataset!: Dataset;
  readonly #folder = mkdtempSync(join(tmpdir(), 'public-cve-records-deployment-'));
  readonly #cursorSecret = `deployment-${Math.random()}`;

  constructor(readonly options: DeploymentOptions) {}

  get upstream(): string {
    return join(this.#folder, 'upstream');
  }

  async start(): Promise<void> {
    const haproxy = haproxyBinary();
    [this.postgres, this.redis] = await Promise.all([startPostgres(), startRedis()]);
    const migrated = await runCli(['db', 'migrate', '--database-url', this.postgres.url]);
    if (migrated.code !== 0) throw new Error(`db migrate failed: ${migrated.stderr}`);
    mkdirSync(this.upstream);
    this.dataset = new Dataset(this.upstream, this.options.records);
    // The baseline in before the replicas start, as an operator's first sync would be.
    const first = await runCli(this.#syncArgs());
    if (first.code !== 0) throw new Error(`the first sync failed: ${first.stdout}${first.stderr}`);
    this.relay = await startTcpRelay(this.postgres.port);
    for (let i = 1; i <= REPLICAS; i++) {
      const port = await freePort();
      this.replicas.push({ name: `replica${i}`, port, url: `http://127.0.0.1:${port}`, process: undefined as unknown as Process });
    }
    await Promise.all(this.replicas.map((replica) => this.startReplica(replica)));
    const listen = await freePort();
    this.proxyUrl = `http://127.0.0.1:${listen}`;
    const addresses = Object.fromEntries(this.replicas.map((replica, i) => [`CVE_RECORDS_REPLICA_${i + 1}`, `127.0.0.1:${replica.port}`]));
    this.proxy = spawnProcess(haproxy, ['-db', '-f', HAPROXY_CONFIG], { CVE_RECORDS_LISTEN: `127.0.0.1:${listen}`, ...addresses });
    await until(async () => (await status(`${this.proxyUrl}/api/v1/health`)) === 200, 20_000, 'HAProxy answering');
    this.startSync();
  }

  /** The database URL replica `replica` uses: replica 1's goes through the relay. */
  databaseUrlOf(replica: Replica): string {
    return replica === this.replicas[0] ? this.postgres.url.replace(`:${this.postgres.port}/`, `:${this.relay.port}/`) : this.postgres.url;
  }

  async startReplica(replica: Replica): Promise<void> {
    replica.process = spawnCli([
      'serve',
      '--port',
      String(replica.port),
      '--database-url',
      this.databaseUrlOf(replica),
      '--redis-url',
      this.redis.url,
      '--trust-proxy',
      '127.0.0.1',
      '--cursor-secret',
      this.#cursorSecret,
      '--rate-limit-max',
      String(this.options.rateLimit),
      '--rate-limit-window',
      '3600',
      '--shutdown-timeout',
      '5',
    ]);
    await replica.process.waitFor(/Server listening at/, this.options.startMs);
  }

  #syncArgs(follow = false): string[] {
    const args = [
      'sync',
      this.upstream,
      // PostgreSQL is the store of record itself: each step one transaction with its cursor there.
      '--catalog',
      this.postgres.url,
    ];
    return follow ? [...args, '--follow', '--interval', '1'] : args;
  }

  startSync(): void {
    this.sync = spawnCli(this.#syncArgs(true));
    this.#syncOutputs.push(this.sync);
  }

  /** The names of the releases some sync has applied (a step redone after a kill is listed again). */
  applied(): string[] {
    return this.#syncOutputs.flatMap((sync) =>
      [...sync.output().matchAll(/ applied (\S+) in \d+ ms \(CPU \d+ ms\):/g)].map((match) => match[1]!),
    );
  }

  /**
   * True when every replica says it is healthy and serves `target` (by default the newest delta the sync has
   * applied): the sync has applied it and each replica has a version of its sample record at least as new.
   */
  async whole(target?: PublishedDelta): Promise<boolean> {
    const applied = new Set(this.applied());
    if (target && !applied.has(target.name)) return false;
    const newest = target ?? this.dataset.deltas.filter((delta) => applied.has(delta.name)).at(-1);
    const answers = await Promise.all(
      this.replicas.map(async (replica) => {
        if ((await status(`${replica.url}/api/v1/health`)) !== 200) return false;
        if (!newest) return true;
        const record = await json(`${replica.url}/api/v1/cve-records/${newest.sample.id}`);
        const version = Number(/-rev(\d+)$/.exec(String(record?.project))?.[1] ?? -1);
        return version >= newest.sample.version;
      }),
    );
    return answers.every(Boolean);
  }

  /** What each part says now, for a deployment that does not become whole: health, the sample's version, log tails. */
  async describe(target?: PublishedDelta): Promise<string> {
    const tail = (text: string) => text.trim().split('\n').slice(-8).join('\n    ');
    const applied = this.applied();
    const lines = [`the sync applied ${applied.length} steps, the last ${applied.at(-1)}; waiting for ${target?.name}`];
    for (const replica of this.replicas) {
      const health = await status(`${replica.url}/api/v1/health`);
      const record = target ? await json(`${replica.url}/api/v1/cve-records/${target.sample.id}`) : undefined;
      lines.push(
        `${replica.name}: health ${health}, ${target?.sample.id} ${String(record?.project)}\n    ${tail(replica.process.output())}`,
      );
    }
    lines.push(`sync:\n    ${tail(this.sync.output())}`);
    return lines.join('\n');
  }

  /** PostgreSQL's records as id -> project. */
  async tableProjects(): Promise<Map<string, string>> {
    const client = new pg.Client({ connectionString: this.postgres.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string; project: string }>('SELECT id, project FROM cve_records');
      return new Map(rows.map((row) => [row.id, row.project]));
    } finally {
      await client.end();
    }
  }

  async stop(): Promise<void> {
    await Promise.all([
      this.sync?.kill('SIGTERM'),
      this.proxy?.kill('SIGTERM'),
      ...this.replicas.map((replica) => replica.process?.kill('SIGTERM')),
    ]);
    await this.relay?.close();
    await Promise.all([this.postgres?.stop(), this.redis?.stop()]);
    rmSync(this.#folder, { recursive: true, force: true });
  }
}

/** The status of a GET, or 0 when it could not be sent or answered within 2 s. */
export async function status(url: string, headers: Record<string, string> = {}): Promise<number> {
  try {
    const response = await request(url, { headers, headersTimeout: 2000, bodyTimeout: 2000, reset: true });
    await response.body.dump();
    return response.statusCode;
  } catch {
    return 0;
  }
}

async function json(url: string): Promise<Record<string, unknown> | undefined> {
  try {
    const response = await request(url, { headersTimeout: 2000, bodyTimeout: 2000, reset: true });
    if (response.statusCode !== 200) {
      await response.body.dump();
      return undefined;
    }
    return (await response.body.json()) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Resolves when `condition` holds, asking every 100 ms; rejects after `timeoutMs`. Returns the time it took. */
export async function until(condition: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await condition()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
