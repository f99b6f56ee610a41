// Issue 25: a server on the SQLite store of record applies a step's rows to the snapshot it serves, never
// reading the corpus again, and what it serves then equals a whole load of the store (the same dataset
// version, record for record); a step with an invalid row is refused while the last snapshot keeps serving.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogError } from '../../src/catalog/json/catalog-file.js';
import { writeCatalogFile } from '../../src/catalog/json/catalog-writer.js';
import { openSqliteStore } from '../../src/catalog/sqlite/sqlite-store.js';
import { readCatalogFromStore, writeCatalogToStore } from '../../src/catalog/store/catalog-store.js';
import { InvalidRowError } from '../../src/catalog/store/row-facts.js';
import { migrationsTable, pendingMigrations } from '../../src/catalog/store/store-migrations.js';
import { loadStoreSnapshot } from '../../src/catalog/store/store-snapshot.js';
import type { CatalogFile } from '../../src/contract/index.js';
import { detailsJson } from '../../src/core/details-json.js';
import type { RecordStore, StoredRecord } from '../../src/core/record-store.js';
import type { Snapshot } from '../../src/core/snapshot.js';
import type { CatalogSource } from '../../src/sources/catalog-source.js';
import { sqliteSource } from '../../src/sources/sqlite-source.js';
import { loadDefaultCatalog } from '../support/app.js';

let catalog: CatalogFile;
let path: string;
let writer: RecordStore;
let source: CatalogSource;

beforeAll(async () => {
  catalog = await loadDefaultCatalog();
  path = join(mkdtempSync(join(tmpdir(), 'store-')), 'records.db');
  writer = openSqliteStore(path);
  await writeCatalogToStore(writer, catalog);
  source = sqliteSource(path);
}, 120_000);
afterAll(async () => {
  await source?.close();
  await writer?.close();
});

/** A step as a sync writes one: some records changed, some new, one removed. */
async function step(changed: readonly StoredRecord[], removed: readonly string[]): Promise<number> {
  const { sequence } = await writer.step(async (w) => {
    await w.upsert(changed);
    await w.remove(removed.map((id) => ({ id, modified: '2026-11-26T00:00:00.000Z' })));
    return {
      end: { lastVerified: w.state.lastVerified, sync: w.state.sync, feedEnd: Date.parse('2026-11-26T00:00:00.000Z') },
      result: undefined,
    };
  });
  return sequence;
}

const asStored = (record: CatalogFile['records'][number]): StoredRecord => {
  const { details, ...own } = record;
  return { record: own, details: details === undefined ? undefined : detailsJson(details) };
};

describe('the SQLite store as a source', () => {
  let first: Snapshot;

  it('loads the store whole once, naming its sequence', async () => {
    first = await source.load();
    expect(first.size).toBe(catalog.records.length);
    expect(first.sequence).toBe(1);
  });

  it('applies a step of 500 records to the snapshot served, equal to a whole load of the store after it', async () => {
    const changed = catalog.records.slice(0, 450).map((record) => asStored({ ...record, summary: `Changed: ${record.summary ?? ''}` }));
    const added = Array.from({ length: 50 }, (_, i) =>
      asStored({
        id: `CVE-2026-${90_000 + i}`,
        project: 'brand-new',
        status: 'public',
        url: `https://www.cve.org/CVERecord?id=CVE-2026-${90_000 + i}`,
      }),
    );
    const gone = catalog.records.at(-1)!.id;
    const sequence = await step([...changed, ...added], [gone]);
    expect(sequence).toBe(2);

    const started = performance.now();
    const next = await source.load(first);
    const applyMs = performance.now() - started;
    expect(next.sequence).toBe(2);
    // Applied, not reloaded: a new snapshot whose texts are read from the rows.
    expect(next.texts).not.toBe(first.texts);
    expect(next.size).toBe(catalog.records.length + 50 - 1);
    expect(next.get(gone)).toBeUndefined();
    expect(next.removed.map((removal) => removal.id)).toContain(gone);
    expect(next.get(catalog.records[0]!.id)?.summary).toMatch(/^Changed: /);

    const whole = (await loadStoreSnapshot(writer)).snapshot;
    expect(next.version).toBe(whole.version);
    const differing = whole.table.ids.filter((id) => JSON.stringify(next.get(id)?.details) !== JSON.stringify(whole.get(id)?.details));
    expect(differing).toEqual([]);
    // A figure, not a bound: the benchmark measures it at the corpus's size (docs/PERFORMANCE.md).
    expect(applyMs).toBeGreaterThan(0);
  });

  it('refuses an invalid row when it is written: the step fails whole and nothing of it is written', async () => {
    const served = await source.load(first);
    const bad = asStored({ ...catalog.records[1]!, url: 'javascript:alert(1)' });
    await expect(step([asStored({ ...catalog.records[2]!, summary: 'Not written' }), bad], [])).rejects.toBeInstanceOf(InvalidRowError);
    expect((await writer.state()).sequence).toBe(served.sequence);
    expect(await source.load(served)).toBe(served);
  });

  it('checks a row another program wrote (its facts cleared by the schema): refused whole, and the snapshot served never reads it', async () => {
    const served = await source.load(first);
    const { id, url } = catalog.records[1]!;
    const other = new DatabaseSync(path);
    try {
      other.prepare("UPDATE cve_records SET url = 'javascript:alert(1)', summary = 'Foreign', seq = seq + 1 WHERE id = ?").run(id);
      other.prepare('UPDATE cve_catalog SET seq = seq + 1').run();
    } finally {
      other.close();
    }
    await expect(source.load(served)).rejects.toBeInstanceOf(CatalogError);
    expect(served.get(id)?.record.url).toBe(url);
    // Its texts are read from the row only while the row is the one the snapshot checked.
    expect(served.get(id)?.summary).toBeUndefined();
    await expect(loadStoreSnapshot(writer)).rejects.toBeInstanceOf(CatalogError);
    // The next step puts the row right, and the change is taken.
    await step([asStored(catalog.records[1]!)], []);
    const next = await source.load(served);
    expect(next.get(id)?.record.url).toBe(url);
    expect(next.get(id)?.summary).toBe(catalog.records[1]!.summary);
  });

  it('starts from a checkpoint plus the rows written after it, equal to a whole load; a checkpoint of another store is not used', async () => {
    const checkpoint = join(mkdtempSync(join(tmpdir(), 'checkpoint-')), 'records.snapshot');
    const { catalog: held, details, state } = await readCatalogFromStore(writer);
    await writeCatalogFile(checkpoint, held, { details, checkpoint: { id: state.storeId, sequence: state.sequence } });
    const later = catalog.records.slice(500, 600).map((record) => asStored({ ...record, summary: `Later: ${record.summary ?? ''}` }));
    const sequence = await step(later, []);

    const warnings: string[] = [];
    const started = sqliteSource(path, checkpoint, (message) => warnings.push(message));
    try {
      const snapshot = await started.load();
      expect(snapshot.sequence).toBe(sequence);
      expect(snapshot.version).toBe((await loadStoreSnapshot(writer)).snapshot.version);
      expect(snapshot.get(catalog.records[500]!.id)?.summary).toMatch(/^Later: /);
      expect(warnings).toEqual([]);
    } finally {
      await started.close();
    }

    const other = join(mkdtempSync(join(tmpdir(), 'store-')), 'other.db');
    const elsewhere = sqliteSource(other, checkpoint, (message) => warnings.push(message));
    try {
      expect((await elsewhere.load()).size).toBe(0);
      expect(warnings).toEqual([`${checkpoint} is not a checkpoint of ${other}: loading the store whole`]);
    } finally {
      await elsewhere.close();
    }
  });

  it('a step that writes nothing leaves the sequence, and the source gives back the snapshot it has', async () => {
    const served = await source.load();
    const { sequence } = await writer.step(async (w) => ({
      end: { lastVerified: w.state.lastVerified, sync: w.state.sync, feedEnd: w.state.feedEnd },
      result: undefined,
    }));
    expect(sequence).toBe(served.sequence);
    expect(await source.load(served)).toBe(served);
  });

  it('starts on a store written before rows kept their facts (migration 6): rows are checked as read, the same version as a new store', async () => {
    const records = catalog.records.slice(0, 300);
    const older = join(mkdtempSync(join(tmpdir(), 'store-')), 'older.db');
    const db = new DatabaseSync(older);
    db.exec(migrationsTable('sqlite'));
    for (const statement of pendingMigrations('sqlite', 0).slice(
      0,
      pendingMigrations('sqlite', 0).indexOf('INSERT INTO cve_records_migrations (version) VALUES (5)') + 1,
    ))
      db.exec(statement);
    const insert = db.prepare(
      'INSERT INTO cve_records (id, project, status, url, summary, published, modified, changed, details, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)',
    );
    for (const { details, ...r } of records)
      insert.run(
        r.id,
        r.project,
        r.status,
        r.url,
        r.summary ?? null,
        r.published ?? null,
        r.modified ?? null,
        r.changed ?? null,
        details === undefined ? null : detailsJson(details),
      );
    db.prepare('UPDATE cve_catalog SET seq = 1, last_verified = ?').run(catalog.lastVerified);
    db.close();

    const fresh = openSqliteStore(':memory:');
    const started = sqliteSource(older);
    try {
      await writeCatalogToStore(fresh, { lastVerified: catalog.lastVerified, records });
      const snapshot = await started.load();
      expect(snapshot.size).toBe(records.length);
      expect(snapshot.version).toBe((await loadStoreSnapshot(fresh)).snapshot.version);
      const withDetails = records.find((record) => record.details !== undefined)!;
      expect(snapshot.get(withDetails.id)?.details).toEqual(withDetails.details);
    } finally {
      await started.close();
      await fresh.close();
    }
  });
});
