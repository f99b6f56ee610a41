// Issue 14, `cve-records sync` as operators run it: a sync killed at any point and rerun ends in the same
// catalog as one uninterrupted run; `sync --follow` beside `serve` keeps a running service current.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/catalog/sqlite/sqlite-store.js';
import type { RecordChangesPage } from '../../src/contract/index.js';
import { BIN, runCli, startServer } from '../support/cli.js';
import { catalogOf } from '../support/store-catalog.js';
import { type UpstreamRecord, writeBaseline, writeDelta } from '../support/upstream.js';

const D1 = '2026-11-20';
const D2 = '2026-11-21';

/** Enough records that each step takes a while, so kills land inside steps as well as between them. */
function records(from: number, count: number, updated: string, product = 'widget'): UpstreamRecord[] {
  return Array.from({ length: count }, (_, i) => ({ id: `CVE-2026-${from + i}`, product: `${product}${i % 40}`, vendor: 'acme', updated }));
}

function publishScript(dir: string): void {
  writeBaseline(dir, D1, records(10_000, 1500, '2026-11-19T10:00:00.000Z'));
  writeDelta(dir, `${D1}_delta_CVEs_at_0100Z.zip`, records(20_000, 500, '2026-11-20T00:30:00.000Z', 'gadget'));
  writeDelta(dir, `${D1}_delta_CVEs_at_0300Z.zip`, [
    ...records(20_000, 500, '2026-11-20T00:30:00.000Z', 'gadget'),
    ...records(10_000, 300, '2026-11-20T02:00:00.000Z', 'renamed'),
    { id: 'CVE-2026-10500', state: 'REJECTED', updated: '2026-11-20T02:30:00.000Z' },
  ]);
  writeDelta(dir, `${D2}_delta_CVEs_at_0100Z.zip`, records(30_000, 800, '2026-11-21T00:30:00.000Z', 'sprocket'));
}

/** The catalog as written, but for the time the last sync finished. */
function catalogState(path: string): unknown {
  const catalog = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8'));
  delete catalog.sync.syncedAt;
  return catalog;
}

const syncArgs = (dir: string, out: string) => [
  'sync',
  dir,
  '--catalog',
  join(out, 'catalog.json.gz'),
  '--out',
  join(out, 'served.snapshot'),
  '--workers',
  '1',
];

describe('cve-records sync, stopped anywhere', () => {
  let upstream: string;
  let expected: unknown;
  let expectedSnapshot: Buffer;
  let runMs: number;

  beforeAll(async () => {
    upstream = mkdtempSync(join(tmpdir(), 'upstream-'));
    publishScript(upstream);
    const out = mkdtempSync(join(tmpdir(), 'sync-'));
    const started = Date.now();
    const run = await runCli(syncArgs(upstream, out));
    runMs = Date.now() - started;
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout.match(/applied /g)).toHaveLength(3);
    expected = catalogState(join(out, 'catalog.json.gz'));
    expectedSnapshot = readFileSync(join(out, 'served.snapshot'));
  }, 120_000);

  it('ends, after a kill at any point and a rerun, in the catalog and snapshot of one uninterrupted run', async () => {
    const fractions = [0.25, 0.55, 0.85];
    for (const fraction of fractions) {
      const out = mkdtempSync(join(tmpdir(), 'sync-killed-'));
      const child = spawn(process.execPath, [BIN, ...syncArgs(upstream, out)], { stdio: 'ignore' });
      // Listened for from the start: on a loaded machine the run may end before the kill, and an 'exit'
      // listened for only after it was emitted would be waited for until the test times out.
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await new Promise((resolve) => setTimeout(resolve, runMs * fraction));
      child.kill('SIGKILL');
      await exited;
      const rerun = await runCli(syncArgs(upstream, out));
      expect(rerun.code, rerun.stdout + rerun.stderr).toBe(0);
      expect(catalogState(join(out, 'catalog.json.gz')), `killed at ${fraction}`).toEqual(expected);
      expect(readFileSync(join(out, 'served.snapshot')).equals(expectedSnapshot), `snapshot after a kill at ${fraction}`).toBe(true);
      // And a third run has nothing to do.
      const again = await runCli(syncArgs(upstream, out));
      expect(again.stdout).toMatch(/up to date/);
    }
    // About 4.7 uninterrupted runs (three partial runs and three reruns): 20 s on a quiet machine, over 240 s
    // when a loaded one made the first run take 50 s.
  }, 600_000);
});

/** What an SQLite store holds, as a catalog, but for the time the last sync finished. */
async function storeState(path: string): Promise<unknown> {
  const store = openSqliteStore(path);
  try {
    const catalog = await catalogOf(store);
    const { syncedAt: _, ...cursor } = catalog.sync!;
    return { ...catalog, sync: cursor };
  } finally {
    await store.close();
  }
}

describe('cve-records sync into an SQLite store, stopped anywhere', () => {
  const storeArgs = (dir: string, out: string) => ['sync', dir, '--catalog', join(out, 'records.db'), '--workers', '1'];
  let upstream: string;
  let expected: unknown;
  let runMs: number;

  beforeAll(async () => {
    upstream = mkdtempSync(join(tmpdir(), 'upstream-'));
    publishScript(upstream);
    const out = mkdtempSync(join(tmpdir(), 'sync-'));
    const started = Date.now();
    const run = await runCli(storeArgs(upstream, out));
    runMs = Date.now() - started;
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout.match(/applied /g)).toHaveLength(3);
    expected = await storeState(join(out, 'records.db'));
  }, 120_000);

  it('ends, after a kill at any point and a rerun, in the store of one uninterrupted run', async () => {
    for (const fraction of [0.2, 0.5, 0.8]) {
      const out = mkdtempSync(join(tmpdir(), 'sync-killed-'));
      const child = spawn(process.execPath, [BIN, ...storeArgs(upstream, out)], { stdio: 'ignore' });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await new Promise((resolve) => setTimeout(resolve, runMs * fraction));
      child.kill('SIGKILL');
      await exited;
      const rerun = await runCli(storeArgs(upstream, out));
      expect(rerun.code, rerun.stdout + rerun.stderr).toBe(0);
      expect(await storeState(join(out, 'records.db')), `killed at ${fraction}`).toEqual(expected);
      const again = await runCli(storeArgs(upstream, out));
      expect(again.stdout).toMatch(/up to date/);
    }
  }, 600_000);
});

describe('one process: serve --records STORE --sync UPSTREAM', () => {
  let stopServer: (() => Promise<unknown>) | undefined;
  afterAll(async () => {
    await stopServer?.();
  });

  it('follows upstream inside the serving process and serves each step as it commits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'upstream-'));
    const store = join(mkdtempSync(join(tmpdir(), 'one-process-')), 'records.db');
    writeBaseline(dir, D1, records(10_000, 50, '2026-11-19T10:00:00.000Z'));
    const server = await startServer(['--records', store, '--sync', dir, '--sync-interval', '1', '--rate-limit-max', '0']);
    stopServer = server.stop;
    const statusOf = async (id: string) => (await fetch(`${server.baseUrl}/api/v1/cve-records/${id}`)).status;
    // While waiting for the baseline, a connection closed unanswered is noted and asked again: twice in
    // about ten CI runs one was, at about 1.2 s, cause not found (docs: the issue note of 2026-11-26). The
    // reads during the delta below count every failure.
    const unanswered: string[] = [];
    const until = async (id: string, ms: number) => {
      const started = Date.now();
      const answered = () =>
        statusOf(id).catch((error: Error) => {
          unanswered.push(`${Date.now() - started} ms: ${error.message} (${String((error.cause as Error | undefined)?.message)})`);
          return 0;
        });
      while ((await answered()) !== 200 && Date.now() - started < ms) await new Promise((resolve) => setTimeout(resolve, 50));
      return Date.now() - started;
    };
    await until('CVE-2026-10049', 20_000);
    if (unanswered.length > 0)
      console.warn(`serve --sync: connections closed unanswered while starting: ${unanswered.join('; ')}\n${server.output()}`);
    expect(await statusOf('CVE-2026-10049')).toBe(200);

    // Reads keep coming while the delta lands: every one is answered, from one version or the next.
    let reading = true;
    const failures: string[] = [];
    let reads = 0;
    const readers = Array.from({ length: 4 }, async () => {
      while (reading) {
        for (const path of ['/api/v1/cve-records/CVE-2026-10001', '/api/v1/cve-records?limit=20', '/api/v1/cve-records/changes?limit=5']) {
          const response = await fetch(`${server.baseUrl}${path}`);
          await response.arrayBuffer();
          reads++;
          if (response.status !== 200) failures.push(`${path}: ${response.status}`);
        }
      }
    });
    writeDelta(dir, `${D1}_delta_CVEs_at_0500Z.zip`, [
      { id: 'CVE-2026-99999', product: 'brand-new', vendor: 'acme', updated: '2026-11-20T04:59:00.000Z' },
      ...records(10_000, 20, '2026-11-20T04:58:00.000Z', 'renamed'),
    ]);
    const waited = await until('CVE-2026-99999', 20_000);
    reading = false;
    await Promise.all(readers);
    expect(await statusOf('CVE-2026-99999')).toBe(200);
    const renamed = (await (await fetch(`${server.baseUrl}/api/v1/cve-records/CVE-2026-10001`)).json()) as { project: string };
    expect(renamed.project).toBe('renamed1');
    expect(failures).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    // One sync interval, the step, and the server applying its rows.
    expect(waited).toBeLessThan(5_000);
    expect(server.output()).toMatch(/applied 2026-11-20_delta_CVEs_at_0500Z\.zip/);
  }, 90_000);
});

describe('sync --follow beside serve', () => {
  let follower: ChildProcess | undefined;
  let stopServer: (() => Promise<unknown>) | undefined;
  afterAll(async () => {
    follower?.kill('SIGTERM');
    await stopServer?.();
  });

  it('serves a record published upstream within one poll interval, and lists it in the change feed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'upstream-'));
    const out = mkdtempSync(join(tmpdir(), 'follow-'));
    writeBaseline(dir, D1, records(10_000, 50, '2026-11-19T10:00:00.000Z'));
    // The split deployment: one sync --follow writing the store, a server reading it.
    const storeArgs = ['sync', dir, '--catalog', join(out, 'records.db'), '--workers', '1'];
    const first = await runCli(storeArgs);
    expect(first.code, first.stderr).toBe(0);
    const server = await startServer(['--records', join(out, 'records.db'), '--rate-limit-max', '0']);
    stopServer = server.stop;
    const before = (await (await fetch(`${server.baseUrl}/api/v1/cve-records/changes?limit=1000`)).json()) as RecordChangesPage;
    follower = spawn(process.execPath, [BIN, ...storeArgs, '--follow', '--interval', '1'], { stdio: 'ignore' });

    const published = Date.now();
    writeDelta(dir, `${D1}_delta_CVEs_at_0500Z.zip`, [
      { id: 'CVE-2026-99999', product: 'brand-new', vendor: 'acme', updated: '2026-11-20T04:59:00.000Z' },
    ]);
    let status = 0;
    while (status !== 200 && Date.now() - published < 20_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await fetch(`${server.baseUrl}/api/v1/cve-records/CVE-2026-99999`)).status;
    }
    expect(status).toBe(200);
    // One poll interval, plus the step and the server applying its rows.
    expect(Date.now() - published).toBeLessThan(5_000);
    const feed = await fetch(`${server.baseUrl}/api/v1/cve-records/changes?since=${encodeURIComponent(before.pagination.next)}`);
    const after = (await feed.json()) as RecordChangesPage;
    expect(after.changes.map((change) => change.id)).toEqual(['CVE-2026-99999']);
  }, 60_000);
});

describe('sync --follow', () => {
  let follower: ChildProcess | undefined;
  afterAll(() => {
    follower?.kill('SIGKILL');
  });

  it('keeps following after its polls: still running once it has applied two deltas, and stops on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'upstream-'));
    const out = mkdtempSync(join(tmpdir(), 'follow-'));
    writeBaseline(dir, D1, records(10_000, 20, '2026-11-19T10:00:00.000Z'));
    follower = spawn(process.execPath, [BIN, ...syncArgs(dir, out), '--follow', '--interval', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    follower.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    follower.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => follower!.once('exit', resolve));
    const applied = async (count: number) => {
      const started = Date.now();
      while ((output.match(/applied /g) ?? []).length < count && follower!.exitCode === null && Date.now() - started < 30_000)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect((output.match(/applied /g) ?? []).length, output).toBe(count);
    };
    await applied(1);
    writeDelta(dir, `${D1}_delta_CVEs_at_0100Z.zip`, records(20_000, 5, '2026-11-20T00:30:00.000Z', 'gadget'));
    await applied(2);
    writeDelta(dir, `${D1}_delta_CVEs_at_0200Z.zip`, records(20_000, 6, '2026-11-20T01:30:00.000Z', 'gadget'));
    await applied(3);
    // Two idle polls more, and it is still there.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(follower.exitCode, output).toBeNull();
    follower.kill('SIGTERM');
    expect(await exited, output).toBe(0);
  }, 90_000);
});
