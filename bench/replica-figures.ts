// `npx tsx bench/run.ts replicas`: issue 25's living data on PostgreSQL. The corpus (340,000 records with
// details) as a midnight baseline is synced into a PostgreSQL store (`sync --catalog postgres://…`, into a
// database made for the run and dropped after it); two `serve --database-url` replicas follow it; under
// autocannon on both, a separate `sync` commits a 500-record delta and the time from its commit (its NOTIFY,
// heard here on a connection of the bench's own) to each replica serving the new record is taken, with every
// failed answer meanwhile. BENCH_SYNC_RECORDS makes it smaller; BENCH_DATABASE_URL names the PostgreSQL
// server (any database on it: the run's own is made beside it).

import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { CHANGE_CHANNEL } from '../src/catalog/store/schema.js';
import { buildCorpus } from './corpus.js';
import { memoryMb, runCli, type Server, serve, table } from './support.js';
import { DAY, deltaRecords, newIdOf, pollResets, stepMs, stepRow, until, writeDeltaZip } from './sync-figures.js';

const RECORDS = Number(process.env.BENCH_SYNC_RECORDS ?? 340_000);
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TARGET_MS = 1000;

/** The `catalog reloaded` lines a server prints from now on: when each ended, and how long it took. */
function reloadsOf(server: Server): Array<{ time: number; ms: number }> {
  const reloads: Array<{ time: number; ms: number }> = [];
  let tail = '';
  server.child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (tail + chunk.toString()).split('\n');
    tail = lines.pop()!;
    for (const line of lines) if (line.includes('catalog reloaded')) reloads.push(JSON.parse(line) as { time: number; ms: number });
  });
  return reloads;
}

export async function replicaSection(seconds: number): Promise<void> {
  const corpus = await buildCorpus(RECORDS, (line) => console.error(line));
  const upstream = mkdtempSync(join(tmpdir(), 'bench-upstream-'));
  symlinkSync(corpus.path, join(upstream, `${DAY}_all_CVEs_at_midnight.zip.zip`));
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  const database = `bench_replicas_${process.pid}`;
  await admin.query(`CREATE DATABASE ${database}`);
  const url = Object.assign(new URL(SERVER_URL), { pathname: `/${database}` }).href;
  const listener = new pg.Client({ connectionString: url });
  const replicas: Server[] = [];
  try {
    const args = ['sync', upstream, '--catalog', url];
    const baseline = await runCli(args);

    // Two replicas started together, as a deployment restarts them; each settled (its search index built,
    // the load it meets given once) before the delta.
    const started = performance.now();
    replicas.push(...(await Promise.all([0, 1].map(() => serve(['--database-url', url])))));
    const startMs = await Promise.all(
      replicas.map(async (replica) => {
        await until(async () => (await fetch(`${replica.url}/api/v1/cve-records/CVE-2025-24530`)).status === 200, 120_000);
        return performance.now() - started;
      }),
    );
    for (const replica of replicas) await until(async () => (await fetch(`${replica.url}/ask?query=linux`)).status === 200, 300_000);
    // Eight connections on each: the sixteen of the SQLite server's figure (`bench sync`), shared by two.
    const load = (replica: Server, duration: number) =>
      autocannon({
        url: replica.url,
        connections: 8,
        duration,
        requests: [{ path: '/api/v1/cve-records/CVE-2025-24530' }, { path: '/api/v1/cve-records?limit=20' }],
      });
    await Promise.all(replicas.map((replica) => load(replica, 5)));
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const rssBefore = replicas.map((replica) => memoryMb(replica.child.pid!, 'VmRSS'));
    const reloads = replicas.map(reloadsOf);

    const delta = await deltaRecords(1);
    writeDeltaZip(upstream, 1, delta);
    await listener.connect();
    await listener.query(`LISTEN ${CHANGE_CHANNEL}`);
    const notified = new Promise<number>((resolve) => listener.once('notification', () => resolve(Date.now())));
    const loading = Promise.all(replicas.map((replica) => load(replica, Math.max(seconds, 15))));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // Polled from before the step: a replica may serve it before the sync process has exited.
    const served = replicas.map(async (replica) => {
      await until(async () => (await fetch(`${replica.url}/api/v1/cve-records/${newIdOf(delta)}`)).status === 200, 60_000);
      return Date.now();
    });
    const step = await runCli(args);
    const servedAt = await Promise.all(served);
    const committedAt = await notified;
    const results = await loading;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const rssAfter = replicas.map((replica) => memoryMb(replica.child.pid!, 'VmRSS'));

    const syncStepMs = stepMs(step.stdout);
    const afterCommit = servedAt.map((at) => at - committedAt);
    const failed = results.reduce((sum, result) => sum + result.non2xx + result.errors, 0);
    const requests = results.reduce((sum, result) => sum + result.requests.total, 0);
    console.log(`\n### Living data at ${RECORDS.toLocaleString('en')} records: two PostgreSQL replicas (issue 25)\n`);
    console.log(step.stdout.trim().split('\n').at(-1));
    console.log(
      table([
        {
          measure: `first sync of the baseline into PostgreSQL (${RECORDS.toLocaleString('en')} records)`,
          value: `${baseline.seconds.toFixed(1)} s, peak ${Math.round(baseline.peakMb)} MB`,
          target: '',
          met: '',
        },
        {
          measure: 'two replicas started together, each to its first REST answer',
          value: startMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', '),
          target: '',
          met: '',
        },
        stepRow('the sync step into PostgreSQL', syncStepMs, step.peakMb),
        ...afterCommit.map((ms, n) => ({
          // Judged with the step, as the SQLite server's row of the sync bench is: the delta reaches the
          // replicas that long after the sync began applying it.
          measure: `the same delta served by replica ${n + 1} under load: step + served (served from the step's commit, its NOTIFY)`,
          value: `${Math.round(syncStepMs + ms)} ms (${Math.round(ms)} ms)`,
          target: `<= ${TARGET_MS / 1000} s`,
          met: syncStepMs + ms <= TARGET_MS ? 'yes' : 'NO',
        })),
        {
          measure: `failed answers of both replicas during the delta under load (${requests} requests)`,
          value: failed,
          target: '0',
          met: failed === 0 ? 'yes' : 'NO',
        },
        ...rssBefore.map((before, n) => ({
          measure: `replica ${n + 1} RSS after the delta against before it`,
          value: `${Math.round(before)} -> ${Math.round(rssAfter[n]!)} MB (${(((rssAfter[n]! - before) / before) * 100).toFixed(1)}%)`,
          target: '<= +10%',
          met: rssAfter[n]! <= before * 1.1 ? 'yes' : 'NO',
        })),
      ]),
    );
    // Where the time from the commit went: to the replica hearing it (its reload's start), the reload (the
    // rows read, applied, the new snapshot prepared), and from the swap to the bench's poll seeing it.
    for (const [n, replicaReloads] of reloads.entries()) {
      const reload = replicaReloads.at(-1);
      if (!reload) continue;
      const heard = reload.time - reload.ms - committedAt;
      console.log(
        `\nreplica ${n + 1}: heard the commit after ${heard} ms, reloaded in ${reload.ms} ms, seen served ${servedAt[n]! - reload.time} ms after`,
      );
    }
    console.log(`\nPolls of the bench's own that failed on their connection (polled again): ${pollResets()}.`);
  } finally {
    await Promise.all(replicas.map((replica) => replica.stop()));
    await listener.end().catch(() => {});
    await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
    await admin.end();
    rmSync(upstream, { recursive: true });
  }
}
