// Issue 25: a delta served within a second of its commit by every way of serving the store of record, under
// load, with no failed answer. Two `serve --database-url` replicas follow a PostgreSQL store that
// `sync --catalog postgres://…` keeps; one `serve --records X.db --sync` process syncs the same upstream
// into SQLite itself. The corpus-size figures of the same are `npx tsx bench/run.ts replicas` and `sync`.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_CHANNEL } from '../../src/catalog/store/schema.js';
import { type Running, runCli, startServer } from '../support/cli.js';
import { Dataset, versionOf } from '../support/deployment/dataset.js';
import { type Load, startLoad, tally } from '../support/deployment/load.js';
import { testDatabaseUrl } from '../support/services.js';
import { postgresSchema } from '../support/store-catalog.js';

// Its own schema of the test database: the replicas and the sync see only this file's rows.
let schema: Awaited<ReturnType<typeof postgresSchema>>;
let url: string;
/** Hears the steps' NOTIFY, on the database's channel. */
const listener = new pg.Client({ connectionString: testDatabaseUrl() });
const servers: Running[] = [];
const loads: Load[] = [];

beforeAll(async () => {
  schema = await postgresSchema();
  url = schema.url;
  await listener.connect();
});
afterAll(async () => {
  await Promise.all(loads.map((load) => load.stop()));
  await Promise.all(servers.map((server) => server.stop()));
  await listener.end();
  await schema.drop();
});

/** The project `server` serves for `id`, or its status when it serves none. */
async function projectOf(server: Running, id: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/v1/cve-records/${id}`);
  const body = (await response.json()) as { project?: string };
  return response.status === 200 ? String(body.project) : `HTTP ${response.status}`;
}

/**
 * When `serve --sync`'s step committed: the start of the reload that applies it (`catalog reloaded`'s time
 * less its `ms`), which the step begins as it commits. Its own log line is written after that reload has
 * read the rows, so it would leave that part out.
 */
function reloadStartedAt(output: string): number {
  const reloads = output
    .split('\n')
    .filter((line) => line.includes('"reason":"synced"'))
    .map((line) => JSON.parse(line) as { time: number; ms: number });
  const last = reloads.at(-1);
  if (!last) throw new Error(`no reload after a step in:\n${output.slice(-2000)}`);
  return last.time - last.ms;
}

describe('a delta under load, on two PostgreSQL replicas and one SQLite process', () => {
  it('is served by each within 1 s of its commit, with no failed answer', async () => {
    const upstream = mkdtempSync(join(tmpdir(), 'upstream-'));
    const dataset = new Dataset(upstream, 3000);
    const sync = () => runCli(['sync', upstream, '--catalog', url]);
    const first = await sync();
    expect(first.code, first.stdout + first.stderr).toBe(0);

    const quiet = ['--rate-limit-max', '0'];
    const store = join(mkdtempSync(join(tmpdir(), 'one-process-')), 'records.db');
    servers.push(
      ...(await Promise.all([
        startServer(['--database-url', url, ...quiet]),
        startServer(['--database-url', url, ...quiet]),
        startServer(['--records', store, '--sync', upstream, '--sync-interval', '1', ...quiet]),
      ])),
    );
    const [, , single] = servers as [Running, Running, Running];
    const lastId = dataset.ids.at(-1)!;
    for (const server of servers) {
      const started = Date.now();
      while ((await projectOf(server, lastId)) !== dataset.projectOf(lastId, 0) && Date.now() - started < 20_000)
        await new Promise((resolve) => setTimeout(resolve, 50));
      // The baseline: loaded by the replicas at their start, synced by the SQLite process at its first poll.
      expect(await projectOf(server, lastId), server.output().slice(-2000)).toBe(dataset.projectOf(lastId, 0));
    }

    // Two clients a server, every answer checked (a version that existed, a full page), from before the
    // delta to a second after all three serve it.
    loads.push(...servers.map((server) => startLoad(server.baseUrl, dataset, 2, { pauseMs: 5 })));
    await new Promise((resolve) => setTimeout(resolve, 1000));

    // The replicas' commit: when this file hears the NOTIFY the step's commit sends them (its payload the
    // step's sequence: the channel is the database's, which other schemas' writers may notify too).
    const heard: Array<{ payload: string | undefined; at: number }> = [];
    listener.on('notification', ({ payload }) => heard.push({ payload, at: Date.now() }));
    await listener.query(`LISTEN ${CHANGE_CHANNEL}`);
    const delta = dataset.publish(250, 250);
    const newId = delta.added.at(-1)!;
    const failures: string[] = [];
    // When each server first answers with the delta's changed and new records: the response's arrival, so
    // the time counted is at most the poll's own later than the serving.
    const served = servers.map(async (server) => {
      const started = Date.now();
      while (Date.now() - started < 20_000) {
        try {
          const [changed, fresh] = await Promise.all([projectOf(server, delta.sample.id), projectOf(server, newId)]);
          if (versionOf(delta.sample.id, changed) === delta.sample.version && fresh === dataset.projectOf(newId, 0)) return Date.now();
        } catch (error) {
          failures.push(`a poll of ${server.baseUrl}: ${(error as Error).message}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`${server.baseUrl} did not serve ${delta.name} within 20 s:\n${server.output().slice(-2000)}`);
    });
    const step = await sync();
    expect(step.code, step.stdout + step.stderr).toBe(0);
    const servedAt = await Promise.all(served);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const checked = loads.splice(0);
    await Promise.all(checked.map((load) => load.stop()));

    // From each step's commit: the sync process's for the replicas, the serving process's own for SQLite.
    const sequence = /; sequence (\d+) /.exec(step.stdout)?.[1];
    const notified = heard.find(({ payload }) => payload === sequence)?.at ?? Number.NaN;
    const commits = [notified, notified, reloadStartedAt(single.output())];
    const latency = servedAt.map((at, n) => at - commits[n]!);
    // No margin. Counted from the commit, so the sync's own step is not the servers'; the clients pause 5 ms
    // between answer and request (about 300 requests a second a server) so that the test itself does not
    // starve the three servers, the sync and PostgreSQL of two cores: unpaced clients took a replica to
    // 800 ms at 3,000 records. On the shared 2-core machine: 60 to 340 ms at a load average of 4, at most
    // 740 ms with three busy loops beside it (PERFORMANCE.md, "A delta on PostgreSQL replicas").
    for (const ms of latency) expect(ms, `served ${latency.join(', ')} ms after the commits`).toBeLessThanOrEqual(1000);

    // Every changed and new record, on each server.
    for (const server of servers)
      for (const id of [...delta.changed, ...delta.added])
        expect(await projectOf(server, id)).toBe(dataset.projectOf(id, dataset.version(id)));
    expect(failures).toEqual([]);
    for (const load of checked) {
      const { requests, failed, wrong, failures: why, wrongs } = tally(load.outcomes, 0, Number.POSITIVE_INFINITY);
      expect({ failed, wrong, why, wrongs }).toEqual({ failed: 0, wrong: 0, why: [], wrongs: [] });
      expect(requests).toBeGreaterThan(0);
    }
  }, 120_000);
});
