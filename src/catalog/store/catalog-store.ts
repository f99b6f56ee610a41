// A whole catalog into the store of record (an import, or a JSON catalog a sync starts from) and the
// store back out as a catalog (the JSON and snapshot files a sync also writes, and tests comparing a sync
// with an import).
import type { CatalogFile, CatalogRecord, CatalogRemoval, RecordDetails } from '../../contract/index.js';
import { type CatalogDetails, objectDetails } from '../../core/catalog-details.js';
import { compareListingOrder } from '../../core/cve-id.js';
import { feedTime, type RecordStore, type StoredRecord, type StoreState } from '../../core/record-store.js';
import { type DetailFilters, detailFilters } from '../../core/record-table.js';
import { TextFile } from '../../core/text-file.js';
import { layOutTexts } from '../../core/text-store.js';
import { usedAliases } from './store-snapshot.js';

/** Rows handed to the store per write: a few megabytes of details. */
const CHUNK = 2000;

/**
 * Writes every record of `catalog` (details from `details`, by index; by default those the records
 * hold), its removals, spellings, lastVerified and cursor, in one step. Records already held and not in
 * the catalog stay (an import adds and updates; a sync's baseline is what removes).
 */
export async function writeCatalogToStore(
  store: RecordStore,
  catalog: CatalogFile,
  details?: CatalogDetails,
  groups?: ReadonlyMap<string, string>,
): Promise<number> {
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
    if (groups !== undefined) await writer.setGroups(groups, false);
    return { end: { lastVerified: catalog.lastVerified, sync: catalog.sync ?? writer.state.sync, feedEnd }, result: undefined };
  });
  return sequence;
}

/**
 * The store as a catalog: records in listing order without details, which `details` gives by index from a
 * private temporary file the read wrote them to (at the corpus's size, 700 MB of text never held at once;
 * the file goes when `details` is collected). What the filters read of a record is kept as it is read (the
 * row's facts, or its details parsed where the row has none).
 */
export function readCatalogFromStore(store: RecordStore): Promise<{ catalog: CatalogFile; details: CatalogDetails; state: StoreState }> {
  return store.read(async ({ state, removed, projects, records: batches }) => {
    const file = TextFile.temporary();
    const read: { record: CatalogRecord; at: number; bytes: number; filters: DetailFilters }[] = [];
    let end = 0;
    for await (const batch of batches) {
      const texts = batch.map((row) => row.details);
      const { column, end: batchEnd } = layOutTexts(texts, end);
      const buffer = Buffer.allocUnsafe(batchEnd - end);
      batch.forEach(({ record, details, facts }, i) => {
        if (details !== undefined) buffer.write(details, column.offset[i]! - end, 'utf8');
        const filters = facts?.filters ?? detailFilters(details === undefined ? undefined : (JSON.parse(details) as RecordDetails));
        read.push({ record, at: details === undefined ? -1 : column.offset[i]!, bytes: column.length[i]!, filters });
      });
      file.writeAt(buffer, buffer.length, end);
      end = batchEnd;
    }
    read.sort((a, b) => compareListingOrder(a.record.id, b.record.id));
    const records: CatalogRecord[] = read.map((row) => row.record);
    const aliases = usedAliases(projects, records);
    const catalog: CatalogFile = {
      lastVerified: state.lastVerified,
      projects: [...aliases].map(([name, spellings]) => ({ name, aliases: spellings })).sort((a, b) => (a.name < b.name ? -1 : 1)),
      records,
      removed: [...removed].sort((a: CatalogRemoval, b: CatalogRemoval) => compareListingOrder(a.id, b.id)),
      ...(state.sync ? { sync: state.sync } : {}),
    };
    const details: CatalogDetails = {
      text: (index) => {
        const { at, bytes } = read[index]!;
        return at < 0 ? undefined : file.read(at, bytes);
      },
      byteLength: (index) => (read[index]!.at < 0 ? -1 : read[index]!.bytes),
      filters: (index) => read[index]!.filters,
    };
    file.closeWith(details);
    return { catalog, details, state };
  });
}
