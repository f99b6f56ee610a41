// The faults the deployment is measured under, one at a time, each with what clients saw while it lasted
// and until the deployment was whole again: failed answers, wrong answers, and the time from the part's
// return until the deployment is whole: every replica healthy and serving every change published before
// that moment (time to recover).
import pg from 'pg';
import { type Deployment, status, until } from './deployment.js';
import { type Load, tally } from './load.js';

export interface FaultFigures {
  readonly fault: string;
  readonly requests: number;
  readonly failed: number;
  readonly wrong: number;
  readonly failures: readonly string[];
  readonly wrongs: readonly string[];
  /** From the part's return (restart, reconnection) until the deployment is whole. */
  readonly recoverySeconds: number;
  readonly notes: readonly string[];
}

export interface FaultOptions {
  /** How long a part stays away (Redis stopped, the link cut, a replica dead). */
  readonly outageMs: number;
  /** Records changed by the delta the sync is killed in: enough that the kill lands inside its step. */
  readonly bigDelta: number;
  /** The rate limit per address per hour the replicas run with. */
  readonly rateLimit: number;
  /** How long the deployment may take to be whole again. */
  readonly recoveryTimeoutMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** Changes published upstream at a steady pace, so changes land during every fault. */
export function startPublishing(deployment: Deployment, everyMs: number, changes: number) {
  let paused = false;
  const timer = setInterval(() => {
    if (!paused) deployment.dataset.publish(changes);
  }, everyMs);
  return {
    pause: () => (paused = true),
    resume: () => (paused = false),
    stop: () => clearInterval(timer),
  };
}

export type Publishing = ReturnType<typeof startPublishing>;

/** Requests from one new address through the proxy, one at a time: how many were let through. */
export async function allowedOf(deployment: Deployment, requests: number): Promise<number> {
  const address = `198.51.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;
  let allowed = 0;
  for (let i = 0; i < requests; i++) {
    if ((await status(`${deployment.proxyUrl}/api/v1/health`, { 'x-forwarded-for': address })) === 200) allowed++;
  }
  return allowed;
}

async function measured(
  deployment: Deployment,
  load: Load,
  options: FaultOptions,
  fault: string,
  act: (notes: string[]) => Promise<void>,
): Promise<FaultFigures> {
  const from = Date.now();
  const notes: string[] = [];
  await act(notes);
  const published = deployment.dataset.deltas.at(-1);
  const recovery = await until(
    () => deployment.whole(published),
    options.recoveryTimeoutMs,
    `${fault}: every replica healthy and current`,
  ).catch(async (error: Error) => {
    throw new Error(`${error.message}\n${await deployment.describe(published)}`);
  });
  await sleep(1000); // the first second of the mended deployment counts too
  const counts = tally(load.outcomes, from, Date.now());
  return { fault, ...counts, recoverySeconds: seconds(recovery), notes };
}

export async function killReplica(deployment: Deployment, load: Load, options: FaultOptions): Promise<FaultFigures> {
  const replica = deployment.replicas[1]!;
  return measured(
    deployment,
    load,
    options,
    `${replica.name} killed (SIGKILL), restarted ${seconds(options.outageMs)} s later`,
    async () => {
      await replica.process.kill('SIGKILL');
      await sleep(options.outageMs);
      await deployment.startReplica(replica);
    },
  );
}

export async function stopRedis(deployment: Deployment, load: Load, options: FaultOptions): Promise<FaultFigures> {
  const backBefore = deployment.replicas.map((replica) => count(replica.process.output(), /Redis is back/g));
  const limit = options.rateLimit;
  return measured(
    deployment,
    load,
    options,
    `Redis killed for ${seconds(options.outageMs)} s, then started again (empty)`,
    async (notes) => {
      const shared = await allowedOf(deployment, 2 * limit);
      const stoppedAt = Date.now();
      const { child } = deployment.redis;
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const alone = await allowedOf(deployment, 3 * limit);
      await sleep(Math.max(0, options.outageMs - (Date.now() - stoppedAt)));
      await deployment.redis.restart();
      await until(
        () => deployment.replicas.every((replica, i) => count(replica.process.output(), /Redis is back/g) > backBefore[i]!),
        options.recoveryTimeoutMs,
        'every replica limiting in Redis again',
      );
      const again = await allowedOf(deployment, 2 * limit);
      notes.push(
        `rate limit of ${limit} an hour per address: ${shared} of ${2 * limit} let through with Redis; ` +
          `${alone} of ${3 * limit} while it was away (each replica limits alone); ${again} of ${2 * limit} once it was back`,
      );
    },
  );
}

export async function restartPostgres(deployment: Deployment, load: Load, options: FaultOptions): Promise<FaultFigures> {
  return measured(deployment, load, options, 'PostgreSQL restarted (fast shutdown, start)', async (notes) => {
    const started = Date.now();
    await deployment.postgres.restart();
    notes.push(`PostgreSQL was away ${seconds(Date.now() - started)} s`);
  });
}

export async function killSync(deployment: Deployment, load: Load, options: FaultOptions, publishing: Publishing): Promise<FaultFigures> {
  publishing.pause();
  try {
    return await syncKilled(deployment, load, options);
  } finally {
    publishing.resume();
  }
}

async function syncKilled(deployment: Deployment, load: Load, options: FaultOptions): Promise<FaultFigures> {
  const figures = await measured(
    deployment,
    load,
    options,
    `sync killed (SIGKILL) inside a step of ${options.bigDelta} changes, started again`,
    async (notes) => {
      await until(() => deployment.whole(), options.recoveryTimeoutMs, 'the sync idle before the big delta');
      const watcher = new pg.Client({ connectionString: deployment.postgres.url });
      await watcher.connect();
      try {
        const big = deployment.dataset.publish(options.bigDelta);
        const stepDone = () => deployment.applied().includes(big.name);
        // Inside the step: its transaction has written (it has an xid) and not committed.
        const writing = async () =>
          (await watcher.query('SELECT 1 FROM pg_stat_activity WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid()')).rowCount! > 0;
        // Asked as often as PostgreSQL answers: the window is a fraction of a second.
        let inside = await writing();
        const deadline = Date.now() + options.recoveryTimeoutMs;
        for (; !inside && !stepDone(); inside = await writing()) {
          if (Date.now() > deadline)
            throw new Error(`the sync did not take the big delta in time; it said:\n${deployment.sync.output().slice(-3000)}`);
        }
        await deployment.sync.kill('SIGKILL');
        notes.push(
          inside
            ? 'killed while its transaction was writing to PostgreSQL (rolled back, redone on start)'
            : 'the step ended before the kill landed: killed between steps',
        );
      } finally {
        await watcher.end();
      }
      deployment.startSync();
    },
  );
  // Applied once: the table holds every record at its newest version, no more and no less.
  const table = await deployment.tableProjects();
  const wrongRows = deployment.dataset.ids.filter(
    (id) => table.get(id) !== deployment.dataset.projectOf(id, deployment.dataset.version(id)),
  );
  return {
    ...figures,
    notes: [...figures.notes, `after the restart the table holds ${table.size} records, ${wrongRows.length} not at their newest version`],
  };
}

export async function cutReplicaLink(deployment: Deployment, load: Load, options: FaultOptions): Promise<FaultFigures> {
  const replica = deployment.replicas[0]!;
  return measured(
    deployment,
    load,
    options,
    `${replica.name}'s link to PostgreSQL cut for ${seconds(options.outageMs)} s (changes landing meanwhile)`,
    async (notes) => {
      const cutAt = Date.now();
      deployment.relay.cut();
      const told = await until(async () => (await status(`${replica.url}/api/v1/health`)) !== 200, options.outageMs, 'unhealthy').catch(
        () => undefined,
      );
      notes.push(
        told === undefined
          ? `${replica.name} went on saying it was healthy for the whole cut`
          : `${replica.name} told the proxy it could not reach PostgreSQL ${seconds(told)} s after the cut`,
      );
      await sleep(Math.max(0, options.outageMs - (Date.now() - cutAt)));
      deployment.relay.restore();
    },
  );
}

function count(text: string, pattern: RegExp): number {
  return [...text.matchAll(pattern)].length;
}
