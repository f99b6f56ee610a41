// Issue 25, stop 37: what a sync's delta maps its spellings onto is asked of the store by the keys the
// spellings are looked up by (StoreWriter.knownNames), not read whole: the whole read (every project name
// counted over the records table, every group, every spelling) cost a 500-record delta at 340,000 records
// a tenth of a second. The same answers from SQLite and PostgreSQL, in the same order, and from a store
// migrated from before the names were kept.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/catalog/postgres/database.js';
import { postgresStore } from '../../src/catalog/postgres/postgres-store.js';
import { openSqliteStore } from '../../src/catalog/sqlite/sqlite-store.js';
import { writeCatalogToStore } from '../../src/catalog/store/catalog-store.js';
import { PROJECT_NAMES_MIGRATION } from '../../src/catalog/store/project-names.js';
import { MIGRATIONS } from '../../src/catalog/store/schema.js';
import { migrationsTable } from '../../src/catalog/store/store-migrations.js';
import type { CatalogRecord } from '../../src/contract/index.js';
import type { KnownNames, NameLookups, RecordStore } from '../../src/core/record-store.js';
import { postgresSchema, postgresTestStore, sqliteMemoryStore } from '../support/store-catalog.js';

const record = (n: number, project: string): CatalogRecord => ({
  id: `CVE-2026-${1000 + n}`,
  project,
  status: 'public',
  url: `https://www.cve.org/CVERecord?id=CVE-2026-${1000 + n}`,
  modified: '2026-11-19T00:00:00.000Z',
});

const RECORDS = [
  record(1, 'OpenSSL'),
  record(2, 'OpenSSL'),
  record(3, 'openssl'),
  record(4, 'MongoDB Server'),
  record(5, 'MongoDB Server'),
  record(6, 'Server'),
  record(7, 'Linux'),
  record(8, 'VM VirtualBox'),
];
const GROUPS = new Map([
  ['server@mongodb', 'MongoDB Server'],
  ['server@devolutions', 'Server'],
  ['vmvirtualbox@oracle', 'VM VirtualBox'],
  ['kernel@linux', 'Linux'],
  ['gone@nobody', 'Gone'],
]);

/** What the store answers to `lookups` inside a step that writes nothing. */
async function known(store: RecordStore, lookups: NameLookups): Promise<KnownNames> {
  const { result } = await store.step(async (writer) => ({
    end: { lastVerified: writer.state.lastVerified, sync: writer.state.sync, feedEnd: writer.state.feedEnd },
    result: await writer.knownNames(lookups),
  }));
  return result;
}

const filled = async (store: RecordStore, groups = GROUPS) => {
  await writeCatalogToStore(
    store,
    { lastVerified: '2026-11-20', records: RECORDS, projects: [{ name: 'OpenSSL', aliases: ['openssl project'] }] },
    undefined,
    groups,
  );
};

describe.each([
  ['SQLite', async () => ({ store: sqliteMemoryStore(), drop: async () => {} })],
  ['PostgreSQL', postgresTestStore],
] as const)('the names a delta is mapped onto, from %s', (_engine, open) => {
  let store: RecordStore;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ store, drop } = await open());
    await filled(store);
  });
  afterAll(async () => {
    await store?.close();
    await drop?.();
  });

  it('are those asked for: projects by compact key, groups by key, and by product key alone or after the vendor', async () => {
    const names = await known(store, { names: ['openssl'], groups: ['server@devolutions'], products: ['server', 'oraclevmvirtualbox'] });
    // Every project of the key, those of the groups found, counted; in the order of their bytes.
    expect([...names.projects]).toEqual([
      ['MongoDB Server', 2],
      ['OpenSSL', 2],
      ['Server', 1],
      ['VM VirtualBox', 1],
      ['openssl', 1],
    ]);
    expect([...names.groups]).toEqual([
      ['server@devolutions', 'Server'],
      ['server@mongodb', 'MongoDB Server'],
      ['vmvirtualbox@oracle', 'VM VirtualBox'],
    ]);
    // The store holds groups: spellings are never mapped by the spellings table alone.
    expect(names.aliases).toBeUndefined();
  });

  it('leave out a group project no record uses, and nothing is read that was not asked for', async () => {
    const names = await known(store, { names: ['gone', 'nothing'], groups: ['gone@nobody'], products: [] });
    expect([...names.projects]).toEqual([]);
    expect([...names.groups]).toEqual([['gone@nobody', 'Gone']]);
    const none = await known(store, { names: [], groups: [], products: [] });
    expect([...none.projects]).toEqual([]);
    expect([...none.groups]).toEqual([]);
  });

  it("follow the records' writes: a renamed record's project counts in its new name's key", async () => {
    await writeCatalogToStore(store, { lastVerified: '2026-11-20', records: [record(7, 'Linux Kernel')] });
    const names = await known(store, { names: ['linux', 'linuxkernel'], groups: [], products: [] });
    expect([...names.projects]).toEqual([['Linux Kernel', 1]]);
  });
});

describe('the names from a store that holds no groups (written before they were kept)', () => {
  it('come with every spelling, which the delta maps by', async () => {
    const store = sqliteMemoryStore();
    await filled(store, new Map());
    const names = await known(store, { names: ['openssl'], groups: [], products: [] });
    expect(names.aliases).toEqual([{ name: 'OpenSSL', aliases: ['openssl project'] }]);
    await store.close();
  });
});

/** Rows as a store at the migration before the names were kept held them. */
const OLD_ROWS = [
  ['CVE-2026-1001', 'Linux'],
  ['CVE-2026-1002', 'OpenSSL'],
] as const;

describe('a store migrated from before the names were kept', () => {
  const before = MIGRATIONS.slice(0, PROJECT_NAMES_MIGRATION - 1);

  it('SQLite: has the names of the records it held', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'names-')), 'records.db');
    const db = new DatabaseSync(path);
    db.exec(migrationsTable('sqlite'));
    before.forEach((migration, i) => {
      db.exec(migration.sqlite);
      db.exec(`INSERT INTO cve_records_migrations (version) VALUES (${i + 1})`);
    });
    for (const [id, project] of OLD_ROWS)
      db.prepare("INSERT INTO cve_records (id, project, status, url) VALUES (?, ?, 'public', 'https://www.cve.org')").run(id, project);
    db.close();
    const store = openSqliteStore(path);
    const names = await known(store, { names: ['linux', 'openssl'], groups: [], products: [] });
    expect([...names.projects]).toEqual([
      ['Linux', 1],
      ['OpenSSL', 1],
    ]);
    await store.close();
  });

  it('PostgreSQL: has the names of the records it held', async () => {
    const { url, drop } = await postgresSchema();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(migrationsTable('postgres'));
      for (const [i, migration] of before.entries()) {
        await client.query(migration.postgres);
        await client.query(`INSERT INTO cve_records_migrations (version) VALUES (${i + 1})`);
      }
      for (const [id, project] of OLD_ROWS)
        await client.query("INSERT INTO cve_records (id, project, status, url) VALUES ($1, $2, 'public', 'https://www.cve.org')", [
          id,
          project,
        ]);
    } finally {
      await client.end();
    }
    await migrate(url);
    const names = await known(postgresStore(url), { names: ['linux', 'openssl'], groups: [], products: [] });
    expect([...names.projects]).toEqual([
      ['Linux', 1],
      ['OpenSSL', 1],
    ]);
    await drop();
  });
});

// Stop 40: after a baseline into PostgreSQL, the next delta's counts of the known projects read the
// records table's heap until the table is vacuumed (240 of a 540 ms step at 340,000 records, where
// autovacuum had not run). A step that writes many rows vacuums and analyzes the table after its commit.
describe('PostgreSQL after a step of many rows', () => {
  it('the records table is vacuumed and analyzed after its commit; a small step vacuums nothing', async () => {
    const { store, url, drop } = await postgresTestStore();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const many = Array.from({ length: 10_000 }, (_, n) => record(n, n % 10 === 0 ? 'Linux' : `Project ${n % 97}`));
      await writeCatalogToStore(store, { lastVerified: '2026-11-20', records: many });
      const maintained = async () =>
        (
          await client.query<{ vacuums: number; analyzes: number }>(
            `SELECT vacuum_count::int AS vacuums, analyze_count::int AS analyzes FROM pg_stat_user_tables
             WHERE relname = 'cve_records' AND schemaname = current_schema()`,
          )
        ).rows[0];
      expect(await maintained()).toEqual({ vacuums: 1, analyzes: 1 });
      // What the vacuum buys (a count from the index alone, no heap fetch) is measured, not asserted: VACUUM marks
      // pages all-visible only when no snapshot older than the step's rows is open, and on the tests' own
      // PostgreSQL (initdb's defaults, when none is configured) it did not, twice (docs/PERFORMANCE.md, stop 40).

      await writeCatalogToStore(store, { lastVerified: '2026-11-20', records: [record(20_000, 'Linux')] });
      expect(await maintained()).toEqual({ vacuums: 1, analyzes: 1 });
    } finally {
      await client.end();
      await store.close();
      await drop();
    }
  });
});
