// Issue 14: a scripted upstream (a baseline, then deltas with upstream's faults) synced step by step from a
// folder and from a loopback HTTP server; after each step the catalog's records, statuses, removals, cursor
// and change feed are what the script says.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogFile } from '../../src/contract/index.js';
import { listChanges } from '../../src/core/changes.js';
import { createCursorCodec } from '../../src/core/cursor.js';
import type { RecordStore } from '../../src/core/record-store.js';
import { createSnapshot } from '../../src/core/snapshot.js';
import { releaseFolder } from '../../src/import/sync/release-folder.js';
import { parseReleaseName } from '../../src/import/sync/release-names.js';
import { releaseUrl } from '../../src/import/sync/release-url.js';
import { type AppliedStep, syncSteps } from '../../src/import/sync/sync.js';
import { planReleases } from '../../src/import/sync/sync-plan.js';
import type { Upstream } from '../../src/import/sync/upstream.js';
import { catalogOf, postgresTestStore, sqliteMemoryStore } from '../support/store-catalog.js';
import { writeBaseline, writeDelta } from '../support/upstream.js';

const tokens = createCursorCodec('sync-secret');
const D1 = '2026-11-20';
const D2 = '2026-11-21';

const A = { id: 'CVE-2026-1001', product: 'widget', vendor: 'acme', updated: '2026-11-19T10:00:00.000Z' };
const B = { id: 'CVE-2026-1002', product: 'gadget', vendor: 'acme', updated: '2026-11-19T11:00:00.000Z' };
const R = { id: 'CVE-2026-1003', state: 'REJECTED', updated: '2026-11-19T12:00:00.000Z' } as const;
const A2 = { ...A, updated: '2026-11-20T00:30:00.000Z', description: 'A heap overflow in widget.' };
const N = { id: 'CVE-2026-1004', product: 'sprocket', vendor: 'acme', updated: '2026-11-20T00:40:00.000Z' };
const M = { id: 'CVE-2026-1005', product: 'widget', vendor: 'acme', updated: '2026-11-20T01:50:00.000Z' };
const X = { id: 'CVE-2026-1006', product: 'gizmo', vendor: 'acme', updated: '2026-11-20T02:10:00.000Z' };
const B_REJECTED = { id: B.id, state: 'REJECTED', updated: '2026-11-20T02:30:00.000Z' } as const;
const N_RENAMED = { ...N, product: 'cog', updated: '2026-11-20T23:00:00.000Z' };
const A_OLDER = { ...A, updated: '2026-11-18T00:00:00.000Z', description: 'An old text.' };
const P = { id: 'CVE-2026-1007', product: 'widget', vendor: 'acme', updated: '2026-11-21T00:20:00.000Z' };

/** The script: each step publishes some assets, then a sync runs; the expectations follow it. */
const script: { publish: (dir: string) => void; now: string }[] = [
  { now: `${D1}T00:05:00Z`, publish: (dir) => writeBaseline(dir, D1, [A, B, R]) },
  { now: `${D1}T01:05:00Z`, publish: (dir) => writeDelta(dir, `${D1}_delta_CVEs_at_0100Z.zip`, [A2, N]) },
  {
    now: `${D1}T03:05:00Z`,
    // The 03:00 delta misses M, comes twice under two spellings, and a 02:00 delta turns up after it.
    publish: (dir) => {
      writeDelta(dir, `${D1}_delta_CVEs_at_0300Z.zip`, [A2, N, X, B_REJECTED]);
      writeDelta(dir, `${D1}_delta_CVEs_at_03Z.zip`, [A2, N, X, B_REJECTED]);
      writeDelta(dir, `${D1}_delta_CVEs_at_0200Z.zip`, [A2, { ...N, product: 'stale' }, M]);
    },
  },
  { now: `${D1}T03:10:00Z`, publish: () => {} },
  { now: `${D2}T00:05:00Z`, publish: (dir) => writeBaseline(dir, D2, [A2, B_REJECTED, R, N_RENAMED, M, X]) },
  { now: `${D2}T01:05:00Z`, publish: (dir) => writeDelta(dir, `${D2}_delta_CVEs_at_0100Z.zip`, [A_OLDER, P]) },
];

interface Observed {
  applied: string[];
  records: Record<string, string>;
  removed: string[];
  cursor: CatalogFile['sync'];
  feed: string[];
}

/** Runs the script against an upstream; what each sync applied and left, and the feed since the step before. */
async function runScript(
  makeUpstream: (dir: string, now: () => Date) => Upstream,
  cleared?: Map<string, string | undefined>,
  store: RecordStore = sqliteMemoryStore(),
) {
  const dir = mkdtempSync(join(tmpdir(), 'upstream-'));
  let catalog: CatalogFile = { lastVerified: '2026-11-20', records: [] };
  let token: string | undefined;
  const observed: Observed[] = [];
  for (const step of script) {
    step.publish(dir);
    const now = () => new Date(step.now);
    const applied: AppliedStep[] = [];
    for await (const each of syncSteps(
      store,
      makeUpstream(dir, now),
      { workers: 0, ...(cleared ? { cleared } : {}) },
      { now, lastVerified: '2026-11-20' },
    )) {
      applied.push(each);
    }
    catalog = await catalogOf(store);
    const feed = listChanges(createSnapshot(catalog), { limit: 1000, ...(token ? { since: token } : {}) }, tokens);
    token = feed.pagination.next;
    observed.push({
      applied: applied.map((each) => each.label),
      records: Object.fromEntries(
        catalog.records.map((r) => [r.id, `${r.project}|${r.status}|${r.modified ?? '-'}${r.changed ? '|taken' : ''}`]),
      ),
      removed: (catalog.removed ?? []).map((removal) => `${removal.id}@${removal.modified}`),
      cursor: catalog.sync,
      feed: feed.changes.map((change) => `${change.id}:${change.change}`),
    });
  }
  return { observed, catalog, store };
}

const folder = (dir: string) => releaseFolder(dir);

describe.each([
  ['SQLite', async () => ({ store: sqliteMemoryStore(), drop: async () => {} })],
  ['PostgreSQL', postgresTestStore],
] as const)('sync from a folder of release assets, step by step, into %s', (_engine, openStore) => {
  let observed: Observed[];
  let synced: CatalogFile;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const opened = await openStore();
    drop = opened.drop;
    ({ observed, catalog: synced } = await runScript(folder, undefined, opened.store));
  });
  afterAll(() => drop?.());

  it("carries each record's details, as the newest upstream version of the record gives them", () => {
    const a = synced.records.find((record) => record.id === A.id);
    expect(a?.details).toMatchObject({ description: A2.description, dateUpdated: A2.updated, state: 'PUBLISHED' });
  });

  it('1. the first baseline: every published record; a rejected one is not a removal of anything', () => {
    const [step] = observed;
    expect(step!.applied).toEqual([`${D1}_all_CVEs_at_midnight.zip.zip`]);
    expect(step!.records).toEqual({
      [A.id]: `widget|public|${A.updated}`,
      [B.id]: `gadget|public|${B.updated}`,
    });
    expect(step!.removed).toEqual([]);
    expect(step!.cursor).toMatchObject({ baseline: D1, delta: `${D1}T00:00Z`, dateUpdated: B.updated });
    expect(step!.feed).toEqual([`${A.id}:updated`, `${B.id}:updated`]);
  });

  it('2. a delta: a changed record and a new one, and only those in the feed since the last poll', () => {
    const [, step] = observed;
    expect(step!.applied).toEqual([`${D1}_delta_CVEs_at_0100Z.zip`]);
    expect(step!.records[A.id]).toBe(`widget|public|${A2.updated}`);
    expect(step!.records[N.id]).toBe(`sprocket|public|${N.updated}`);
    expect(step!.feed).toEqual([`${A.id}:updated`, `${N.id}:updated`]);
  });

  it('3. one of two spellings of a delta, none of an older one arriving late; a rejection removes its record', () => {
    const [, , step] = observed;
    expect(step!.applied).toHaveLength(1);
    expect(parseReleaseName(step!.applied[0]!)?.at).toBe(`${D1}T03:00Z`);
    expect(step!.records[N.id]).toBe(`sprocket|public|${N.updated}`);
    expect(step!.records[X.id]).toBe(`gizmo|public|${X.updated}`);
    expect(step!.records[B.id]).toBeUndefined();
    expect(step!.records[M.id]).toBeUndefined();
    expect(step!.removed).toEqual([`${B.id}@${B_REJECTED.updated}`]);
    expect(step!.cursor).toMatchObject({ baseline: D1, delta: `${D1}T03:00Z` });
    expect(step!.feed).toEqual([`${X.id}:updated`, `${B.id}:removed`]);
  });

  it('4. nothing new: nothing applied, nothing in the feed', () => {
    const [, , , step] = observed;
    expect(step!.applied).toEqual([]);
    expect(step!.feed).toEqual([]);
    expect(step!.records).toEqual(observed[2]!.records);
  });

  it('5. the next baseline brings the record the deltas missed (late, so the feed still shows it) and a renamed project', () => {
    const [, , , , step] = observed;
    expect(step!.applied).toEqual([`${D2}_all_CVEs_at_midnight.zip.zip`]);
    expect(step!.records[M.id]).toBe(`widget|public|${M.updated}|taken`);
    expect(step!.records[N.id]).toBe(`cog|public|${N_RENAMED.updated}`);
    expect(step!.records[B.id]).toBeUndefined();
    expect(step!.feed).toEqual([`${N.id}:updated`, `${M.id}:updated`]);
  });

  it('6. an older dateUpdated than the one held is ignored', () => {
    const [, , , , , step] = observed;
    expect(step!.applied).toEqual([`${D2}_delta_CVEs_at_0100Z.zip`]);
    expect(step!.records[A.id]).toBe(`widget|public|${A2.updated}`);
    expect(step!.feed).toEqual([`${P.id}:updated`]);
    expect(step!.cursor).toMatchObject({ baseline: D2, delta: `${D2}T01:00Z`, dateUpdated: P.updated });
  });
});

describe('sync with the operator cleared list', () => {
  it('keeps only cleared ids; one the baseline lacks is not public yet, and turns public with its url when upstream publishes it', async () => {
    const cleared = new Map<string, string | undefined>([
      [A.id, undefined],
      [N.id, undefined],
      [P.id, 'widget'],
    ]);
    const { observed, catalog } = await runScript(folder, cleared);
    expect(Object.keys(observed[0]!.records).sort()).toEqual([A.id, P.id]);
    // Never changed upstream, so the feed lists it when the sync took it.
    expect(observed[0]!.records[P.id]).toBe('widget|assigned-no-public-record|-|taken');
    expect(observed[5]!.records[P.id]).toBe(`widget|public|${P.updated}`);
    expect(observed[5]!.feed).toEqual([`${P.id}:updated`]);
    expect(catalog.records.find((r) => r.id === P.id)).toMatchObject({ status: 'public', url: `https://www.cve.org/CVERecord?id=${P.id}` });
    expect(catalog.records.map((r) => r.id).sort()).toEqual([A.id, N.id, P.id]);
  });
});

describe('sync from release assets served over HTTP (loopback)', () => {
  let server: Server;
  let base: string;
  let served: string;
  const requested: string[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      requested.push(`${request.method} ${request.url}`);
      const name = decodeURIComponent(request.url!.split('/').pop()!);
      try {
        const bytes = readFileSync(join(served, name));
        response.writeHead(200, { 'content-length': bytes.length });
        response.end(request.method === 'HEAD' ? undefined : bytes);
      } catch {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address() as { port: number };
    base = `http://127.0.0.1:${address.port}/releases`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('ends each step with the catalog the folder gives, asking for few assets a poll', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'sync-cache-'));
    const fromFolder = await runScript(folder);
    const fromHttp = await runScript((dir, now) => {
      served = dir;
      return releaseUrl(base, { cacheDir: cache, now });
    });
    expect(fromHttp.observed.map(({ applied, cursor, ...rest }) => rest)).toEqual(
      fromFolder.observed.map(({ applied, cursor, ...rest }) => rest),
    );
    // A poll with nothing new asks for this hour's delta and stops at the one it has.
    const quiet = requested.length;
    await runQuietPoll(releaseUrl(base, { cacheDir: cache, now: () => new Date(`${D2}T01:30:00Z`) }), fromHttp.store);
    expect(requested.length - quiet).toBeLessThanOrEqual(2);
  });

  it('asks for one or two assets a poll when nothing is new, however long ago the last release was', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'sync-cache-'));
    const { store } = await runScript((dir, now) => {
      served = dir;
      return releaseUrl(base, { cacheDir: cache, now });
    });
    // The last delta is of 01:00; at 20:30 the first poll looks for each hour since (the hours between
    // are absent), later polls, in this process or the next, only for what may still come.
    const evening = (time: string) => releaseUrl(base, { cacheDir: cache, now: () => new Date(`${D2}T${time}Z`) });
    const follower = evening('20:30:00');
    await runQuietPoll(follower, store);
    for (const [upstream, label] of [
      [follower, 'the same follower'],
      [evening('20:45:00'), 'a new run'],
    ] as const) {
      const before = requested.length;
      await runQuietPoll(upstream, store);
      expect(requested.length - before, `${label}: ${requested.slice(before).join(', ')}`).toBeLessThanOrEqual(2);
    }
  });
});

async function runQuietPoll(upstream: Upstream, store: RecordStore): Promise<void> {
  for await (const step of syncSteps(store, upstream, { workers: 0 })) throw new Error(`unexpected step ${step.label}`);
}

describe('release names and plans', () => {
  it('reads upstream spellings and refuses what is not a release', () => {
    expect(parseReleaseName('2026-11-20_delta_CVEs_at_end_of_day.zip')?.at).toBe('2026-11-20T24:00Z');
    expect(parseReleaseName('2026-11-20_DELTA_CVEs_at_0700Z.ZIP')?.at).toBe('2026-11-20T07:00Z');
    expect(parseReleaseName('2026-11-20_all_CVEs_at_midnight.zip')?.kind).toBe('baseline');
    for (const name of ['2026-02-30_all_CVEs_at_midnight.zip.zip', '2026-11-20_delta_CVEs_at_2500Z.zip', 'notes.txt', 'x.zip.part']) {
      expect(parseReleaseName(name), name).toBeUndefined();
    }
  });

  it('applies the newest baseline after the cursor, then the latest delta of each later day', () => {
    const names = [
      '2026-11-19_delta_CVEs_at_2300Z.zip',
      '2026-11-19_delta_CVEs_at_end_of_day.zip',
      '2026-11-20_all_CVEs_at_midnight.zip.zip',
      '2026-11-20_delta_CVEs_at_0100Z.zip',
      '2026-11-20_delta_CVEs_at_0500Z.zip',
      '2026-11-21_delta_CVEs_at_0100Z.zip',
    ];
    const releases = names.map((name) => parseReleaseName(name)!);
    const plan = (cursor?: { baseline?: string; delta?: string }) => planReleases(cursor, releases).map((release) => release.name);
    expect(plan()).toEqual([names[2], names[4], names[5]]);
    expect(plan({ baseline: '2026-11-19', delta: '2026-11-19T23:00Z' })).toEqual([names[2], names[4], names[5]]);
    expect(plan({ baseline: '2026-11-20', delta: '2026-11-20T05:00Z' })).toEqual([names[5]]);
    expect(plan({ baseline: '2026-11-20', delta: '2026-11-21T01:00Z' })).toEqual([]);
  });
});
