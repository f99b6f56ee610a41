// Issue 25, stop 37: a delta's sync step costs what the delta brings. Every statement the step runs on
// the SQLite store searches the tables that grow with the catalog by an index, never scans them; a step
// once counted every project over the records table and read every group and spelling (a tenth of a second
// at 340,000 records). SQLite's planner says which: EXPLAIN QUERY PLAN of each statement the step
// prepared, on the store as the step left it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSqliteStore } from '../../src/catalog/sqlite/sqlite-store.js';
import { releaseFolder } from '../../src/import/sync/release-folder.js';
import { syncSteps } from '../../src/import/sync/sync.js';
import { type UpstreamRecord, writeBaseline, writeDelta } from '../support/upstream.js';

const GROWING = ['cve_records', 'cve_removals', 'cve_projects', 'cve_project_groups', 'cve_project_names'];

const record = (n: number, vendor: string, product: string): UpstreamRecord => ({
  id: `CVE-2026-${1000 + n}`,
  vendor,
  product,
  updated: '2026-11-19T00:00:00Z',
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function sync(path: string, dir: string): Promise<void> {
  const store = openSqliteStore(path);
  for await (const _ of syncSteps(store, releaseFolder(dir), { workers: 0 }, { now: () => new Date('2026-11-20T02:00:00Z') }));
  await store.close();
}

describe("a delta's step on the SQLite store", () => {
  it('searches the tables that grow with the catalog, never scans them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'upstream-'));
    const path = join(dir, 'records.db');
    writeBaseline(dir, '2026-11-20', [
      record(1, 'MongoDB', 'MongoDB Server'),
      record(2, 'MongoDB', 'Server'),
      record(3, 'Oracle', 'MySQL'),
    ]);
    await sync(path, dir);

    writeDelta(dir, '2026-11-20_delta_CVEs_at_0100Z.zip', [
      record(1, 'MongoDB', 'MongoDB Server'),
      record(4, 'Devolutions', 'Server'),
      record(5, 'Oracle', 'MySQL'),
    ]);
    const prepared: string[] = [];
    const prepare = DatabaseSync.prototype.prepare;
    vi.spyOn(DatabaseSync.prototype, 'prepare').mockImplementation(function (this: DatabaseSync, sql: string) {
      prepared.push(sql);
      return prepare.call(this, sql);
    });
    // A store opened for the step alone: every statement it runs is prepared during it.
    await sync(path, dir);
    vi.restoreAllMocks();

    const db = new DatabaseSync(path, { readOnly: true });
    const scans: string[] = [];
    for (const sql of new Set(prepared)) {
      // A probe of whether a table holds any row reads one.
      if (/\bLIMIT 1$/.test(sql.trim())) continue;
      for (const row of db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all())
        if (new RegExp(`^SCAN (${GROWING.join('|')})\\b`).test(String(row.detail))) scans.push(`${row.detail}: ${sql}`);
    }
    db.close();
    expect(prepared.some((sql) => sql.includes('cve_project_groups'))).toBe(true);
    expect(scans).toEqual([]);
  });
});
