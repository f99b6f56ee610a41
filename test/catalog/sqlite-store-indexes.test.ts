// The first step into an empty records table drops the table's indexes and makes them again before it
// commits (stop 36: built from the rows at the end, they cost less than kept up row by row). Whatever the
// step does, the store ends with the indexes its migrations made: after a first step that writes records,
// after one that fails, and after a later step into a table that is not empty.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/catalog/sqlite/sqlite-store.js';
import { readCatalogFromStore, writeCatalogToStore } from '../../src/catalog/store/catalog-store.js';
import { InvalidRowError } from '../../src/catalog/store/row-facts.js';
import type { CatalogFile } from '../../src/contract/index.js';
import type { RecordStore } from '../../src/core/record-store.js';
import { loadDefaultCatalog } from '../support/app.js';

let catalog: CatalogFile;
let path: string;
let store: RecordStore;
let migrated: string[];

/** The records table's indexes as another connection sees them after the last commit. */
function indexes(): string[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const rows = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'cve_records' ORDER BY name").all();
    return rows.map((row) => String(row.sql));
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  catalog = await loadDefaultCatalog();
  path = join(mkdtempSync(join(tmpdir(), 'store-indexes-')), 'records.db');
  store = openSqliteStore(path);
  migrated = indexes();
}, 120_000);
afterAll(async () => {
  await store?.close();
});

describe('the records table indexes around a first step', () => {
  it('are the migrations own after a first step that fails, which writes nothing', async () => {
    expect(migrated.length).toBeGreaterThanOrEqual(4);
    const bad = { ...catalog, records: [catalog.records[0]!, { ...catalog.records[1]!, url: 'javascript:alert(1)' }] };
    await expect(writeCatalogToStore(store, bad)).rejects.toBeInstanceOf(InvalidRowError);
    expect(indexes()).toEqual(migrated);
    expect((await store.state()).sequence).toBe(0);
  });

  it('are the migrations own after a first step that writes the catalog, and the rows read back whole', async () => {
    const first = { ...catalog, records: catalog.records.slice(0, 400) };
    await writeCatalogToStore(store, first);
    expect(indexes()).toEqual(migrated);
    const { catalog: read } = await readCatalogFromStore(store);
    expect(read.records.map((record) => record.id)).toEqual(first.records.map((record) => record.id));
  });

  it('are kept through a later step into a table that is not empty', async () => {
    await writeCatalogToStore(store, { ...catalog, records: catalog.records.slice(400, 500) });
    expect(indexes()).toEqual(migrated);
    const { catalog: read } = await readCatalogFromStore(store);
    expect(read.records).toHaveLength(500);
  });
});
