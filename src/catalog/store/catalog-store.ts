// A whole catalog into the store of record (an import, or a JSON catalog a sync starts from) and the
// store back out as a catalog (the JSON and snapshot files a sync also writes, and tests comparing a sync
// with an import).
import type { CatalogFile, CatalogRecord, CatalogRemoval } from '../../contract/index.js';
import { type CatalogDetails, objectDetails } from '../../core/catalog-details.js';
import { compareListingOrder } from '../../core/cve-id.js';
import { feedTime, type RecordStore, type StoredRecord, type StoreState } from '../../core/record-store.js';
import { detailFilters } from '../../core/record-table.js';
import { usedAliases } from './store-snapshot.js';

/** Rows handed to the store per write: a few megabytes of details. */
const CHUNK = 2000;

/**
 * Writes every record of `catalog` (details from `details`, by index; by default those the records
 * hold), its removals, spellings, lastVerified and cursor, in one step. Records already held and not in
 * the catalog stay (an import adds and updates; a sync's baseline is what removes).
 */
export async function writeCatalogToStore(store: RecordStore, catalog: CatalogFile, details?: CatalogDetails): Promise<number> {
  const texts = details ?? objectDetails(catalog.records);
  const { sequence } = await store.step(async (writer) => {
    let feedEnd = writer.state.feedEnd;
    for (let start = 0; start < catalog.records.length; start += CHUNK) {
      const rows: StoredRecord[] = [];
      for (let i = start; i < Math.min(start + CHUNK, catalog.records.length); i++) {
        const { details: _, ...record } = catalog.records[i]!;
        rows.push({ record, details: texts.text(i) });
        feedEnd = Math.max(feedEnd, feedTime(record));
      }
      await writer.upsert(rows);
    }
    await writer.remove(catalog.removed ?? []);
    for (const removal of catalog.removed ?? []) feedEnd = Math.max(feedEnd, Date.parse(removal.modified));
    await writer.setAliases(catalog.projects ?? []);
    return { end: { lastVerified: catalog.lastVerified, sync: catalog.sync ?? writer.state.sync, feedEnd }, result: undefined };
  });
  return sequence;
}

/** The store as a catalog: records in listing order without details, which `details` gives by index. */
export function readCatalogFromStore(store: RecordStore): Promise<{ catalog: CatalogFile; details: CatalogDetails; state: StoreState }> {
  return store.read(async ({ state, removed, projects, records: batches }) => {
    const rows: StoredRecord[] = [];
    for await (const batch of batches) rows.push(...batch);
    rows.sort((a, b) => compareListingOrder(a.record.id, b.record.id));
    const records: CatalogRecord[] = rows.map((row) => row.record);
    const aliases = usedAliases(projects, records);
    const catalog: CatalogFile = {
      lastVerified: state.lastVerified,
      projects: [...aliases].map(([name, spellings]) => ({ name, aliases: spellings })).sort((a, b) => (a.name < b.name ? -1 : 1)),
      records,
      removed: [...removed].sort((a: CatalogRemoval, b: CatalogRemoval) => compareListingOrder(a.id, b.id)),
      ...(state.sync ? { sync: state.sync } : {}),
    };
    const text = (index: number) => rows[index]!.details;
    const details: CatalogDetails = {
      text,
      byteLength: (index) => {
        const json = text(index);
        return json === undefined ? -1 : Buffer.byteLength(json);
      },
      filters: (index) => {
        const json = text(index);
        return detailFilters(json === undefined ? undefined : JSON.parse(json));
      },
    };
    return { catalog, details, state };
  });
}
