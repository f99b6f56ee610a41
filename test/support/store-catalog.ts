// Stores of record for tests: an SQLite store in memory, a PostgreSQL store in a schema of its own, and a
// store read back as a catalog with its details as objects (what a test compares).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '../../src/catalog/postgres/database.js';
import { postgresStore } from '../../src/catalog/postgres/postgres-store.js';
import { openSqliteStore } from '../../src/catalog/sqlite/sqlite-store.js';
import { readCatalogFromStore } from '../../src/catalog/store/catalog-store.js';
import type { CatalogFile, RecordDetails } from '../../src/contract/index.js';
import type { RecordStore } from '../../src/core/record-store.js';
import { testDatabaseUrl } from './services.js';

export async function catalogOf(store: RecordStore): Promise<CatalogFile> {
  const { catalog, details } = await readCatalogFromStore(store);
  return {
    ...catalog,
    records: catalog.records.map((record, index) => {
      const json = details.text(index);
      return json === undefined ? record : { ...record, details: JSON.parse(json) as RecordDetails };
    }),
  };
}

export const sqliteMemoryStore = (): RecordStore => openSqliteStore(':memory:');

/** A URL whose connections all work in a new schema of their own, and the function that drops it. */
export async function postgresSchema(): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `cve_test_${randomBytes(4).toString('hex')}`;
  const base = testDatabaseUrl();
  const url = `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  return {
    url,
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    },
  };
}

/** A migrated PostgreSQL store in a schema of its own. */
export async function postgresTestStore(): Promise<{ store: RecordStore; url: string; drop(): Promise<void> }> {
  const { url, drop } = await postgresSchema();
  await migrate(url);
  return { store: postgresStore(url), url, drop };
}
