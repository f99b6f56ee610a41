import type { CatalogFile, CatalogRemoval, CveRecord, RecordDetails } from '../contract/index.js';
import { type CatalogExport, exportSteps } from './catalog-export.js';
import { type ChangeOrder, changeOrder } from './change-order.js';
import { contentHashOf, recordHash, sumHashes } from './content-hash.js';
import { compareListingOrder } from './cve-id.js';
import { Derived, derived } from './derived.js';
import { detailsJson } from './details-json.js';
import { FilterIndex } from './filter-index.js';
import { type IdIndex, idIndex, positionIn } from './id-index.js';
import { type ProjectTable, projectTable } from './projects.js';
import type { RecordEntry } from './record-entry.js';
import { modifiedAt, publishedAt, type RecordTable, recordAt, recordTable, tableRecord } from './record-table.js';
import { type SearchIndex, searchIndexSteps } from './search/search-index.js';
import type { TextIndexData } from './search/text-index.js';
import { memoryTexts, type TextStore } from './text-store.js';
import { snapshotVersionSource, VersionIndex } from './versions/version-index.js';

export type { HashedFields } from './content-hash.js';
export { ContentHash, contentVersion } from './content-hash.js';
export type { ListFilters, RecordEntry } from './record-entry.js';

/**
 * An immutable view of one catalog version. Built once per load; requests only read it, and a reload
 * replaces the whole object, so a request that started on one snapshot finishes on it.
 */
export interface Snapshot {
  /** Content hash of the catalog: the same records give the same version whatever their source. */
  readonly version: string;
  readonly lastVerified: string;
  /** The store's change sequence this snapshot holds (0 for a catalog read whole): a server reads the changes after it. */
  readonly sequence: number;
  readonly size: number;
  readonly loadedAt: Date;
  readonly table: RecordTable;
  /** The summaries and details, by position. */
  readonly texts: TextStore;
  /** Project spellings besides each canonical name, as the catalog lists them. */
  readonly aliases: ProjectAliases;
  /** Each record's content hash and their sum (content-hash.ts), what a change updates the version from. */
  readonly hashes: Derived<RecordHashes>;
  readonly filters: FilterIndex;
  /** Where each id is (id-index.ts): what a change patches. */
  readonly ids: IdIndex;
  /** The position of a record, or undefined when there is none with this id. */
  positionOf(id: string): number | undefined;
  /** The record at a position, with its published date and summary. */
  entryAt(position: number): RecordEntry;
  get(id: string): RecordEntry | undefined;
  /** The details of the record at a position as stored (JSON in the contract's field order), unparsed. */
  detailsJson(position: number): string | undefined;
  /** The ranked-search structures, built on first use (or prepared in steps) and kept with the snapshot. */
  readonly search: Derived<SearchIndex>;
  /** The projects and their record counts, built on first use. */
  readonly projects: Derived<ProjectTable>;
  /** Records that left the catalog, oldest first, for the change feed. */
  readonly removed: readonly CatalogRemoval[];
  /** The records and removals in change order, built on first use. */
  readonly changes: Derived<ChangeOrder>;
  /** The gzip NDJSON export, made on the first download; only ever `prepare()`d, never built in one go. */
  readonly export: Derived<CatalogExport>;
  /** What the version filters read of each record's affected products, built from the details on first use. */
  readonly versions: Derived<VersionIndex>;
}

/** Each record's content hash by position, and their sum modulo 2^64. */
export interface RecordHashes {
  readonly column: BigUint64Array;
  readonly sum: bigint;
}

export class DuplicateRecordError extends Error {
  constructor(readonly id: string) {
    super(`duplicate record id ${id}`);
  }
}

/** Project spellings besides each canonical name, as a catalog lists them. */
export type ProjectAliases = ReadonlyMap<string, readonly string[]>;

export interface SnapshotParts {
  readonly version: string;
  readonly lastVerified: string;
  readonly table: RecordTable;
  readonly texts: TextStore;
  readonly aliases: ProjectAliases;
  /**
   * A search index stored with the parts (a snapshot file's), read in steps when the search is first built;
   * it gives undefined when what is stored cannot be used, and without one the index is built from the texts.
   */
  readonly textIndex?: (() => Generator<void, TextIndexData | undefined, void>) | undefined;
  readonly removed?: readonly CatalogRemoval[] | undefined;
  readonly sequence?: number | undefined;
  /** Each record's content hash, when the source computed them; otherwise made from the table when a change needs them. */
  readonly hashes?: RecordHashes | undefined;
  /** How the search index is made, when not built whole from the texts (a snapshot patched by a change). */
  readonly search?: (() => Generator<void, SearchIndex, void>) | undefined;
  /** The filter lists, when made elsewhere (patched by a change). */
  readonly filters?: FilterIndex | undefined;
  /** The id index, when patched by a change. */
  readonly ids?: IdIndex | undefined;
  /** How the change order is made from the removals in change order, when patched by a change. */
  readonly changes?: ((removed: readonly CatalogRemoval[]) => ChangeOrder) | undefined;
}

/** A snapshot of a catalog read whole (a JSON file, a database table). */
export function createSnapshot(catalog: CatalogFile): Snapshot {
  const sorted = inListingOrder(catalog.records);
  const texts = memoryTexts(
    sorted.map((record) => record.summary),
    sorted.map((record) => (record.details === undefined ? undefined : detailsJson(record.details))),
  );
  const hash = contentHashOf(catalog.lastVerified, sorted, texts.details);
  return assembleSnapshot({
    version: hash.version(catalog.removed),
    hashes: { column: hash.hashes(), sum: hash.sum },
    lastVerified: catalog.lastVerified,
    table: recordTable(sorted.map(tableRecord)),
    texts,
    aliases: new Map((catalog.projects ?? []).map((project) => [project.name, project.aliases])),
    removed: catalog.removed,
  });
}

/** The records in listing order, a record's position being its place there; two records of one id are an error. */
export function inListingOrder<T extends { readonly id: string }>(records: readonly T[]): T[] {
  const sorted = [...records].sort((a, b) => compareListingOrder(a.id, b.id));
  for (let i = 1; i < sorted.length; i++) if (sorted[i]!.id === sorted[i - 1]!.id) throw new DuplicateRecordError(sorted[i]!.id);
  return sorted;
}

/** A snapshot of parts read or built elsewhere (a snapshot file, a catalog). */
export function assembleSnapshot(parts: SnapshotParts): Snapshot {
  const { table, texts } = parts;
  const ids = parts.ids ?? idIndex(table.ids);
  const removed = inChangeOrder(parts.removed ?? []);
  const entryAt = (position: number): RecordEntry => ({
    position,
    record: recordAt(table, position),
    // Dates and summaries are made when asked for: a get-one answer needs none of them.
    get published() {
      return publishedAt(table, position);
    },
    get modified() {
      return modifiedAt(table, position);
    },
    get summary() {
      return texts.summary(position);
    },
    get details() {
      const json = texts.details(position);
      return json === undefined ? undefined : (JSON.parse(json) as RecordDetails);
    },
  });
  const { aliases } = parts;
  const hashes = parts.hashes;
  const filters = parts.filters ?? new FilterIndex(table);
  return Object.freeze({
    version: parts.version,
    lastVerified: parts.lastVerified,
    sequence: parts.sequence ?? 0,
    size: table.size,
    loadedAt: new Date(),
    table,
    texts,
    aliases,
    hashes: derived(() => hashes ?? hashesOf(table, texts)),
    filters,
    ids,
    positionOf: (id: string) => positionIn(ids, id),
    entryAt,
    get(id: string) {
      const position = positionIn(ids, id);
      return position === undefined ? undefined : entryAt(position);
    },
    detailsJson: (position: number) => texts.details(position),
    search: new Derived(parts.search ?? (() => searchIndexSteps(table, texts, aliases, parts.textIndex))),
    projects: derived(() => projectTable(table, aliases)),
    removed,
    changes: derived(() => parts.changes?.(removed) ?? changeOrder(table, removed)),
    export: new Derived(() => exportSteps(table)),
    versions: derived(
      () =>
        new VersionIndex(
          snapshotVersionSource(
            table,
            (position) => texts.details(position),
            aliases,
            (name) => filters.project(name),
          ),
        ),
    ),
  });
}

/**
 * Builds before a snapshot is served what its first requests would otherwise build: the search index (in
 * steps), the project table (the web page and the projects operation) and the change feed's order (0.1 to
 * 0.3 s at 340,000 records, once paid by whoever asked first after a reload).
 *
 * A change to a `served` snapshot whose own index is not built yet (a change in the first seconds after a
 * start, while the start's index is read or built) does not wait for the index: the change is served at once
 * and its index follows in steps, which `/ask` waits for. Otherwise the change's index costs only its own
 * records (search-layers.ts) and is built first.
 */
export async function prepareSnapshot(snapshot: Snapshot, served?: Snapshot): Promise<void> {
  const search = snapshot.search.prepare();
  if (served === undefined || served.search.built) await search;
  // A failed build is reported by the requests that wait for it, not here.
  else search.catch(() => {});
  await snapshot.projects.prepare();
  await snapshot.changes.prepare();
  // The map of the ids an index was first made of: shared along a chain of changes, made once.
  await snapshot.ids.numbers.prepare();
  // Not the version index's parts: each reads records' details (all of them for the package and CPE lists, a
  // quarter of a second at the sample's 17,000 records), which a service nobody asks for versions should not
  // pay at each load; the first query reading a part builds it (prepareSubjects in version-subjects.ts).
}

/** Removals by time, then in listing order: the order the change feed reads them in. */
function inChangeOrder(removed: readonly CatalogRemoval[]): readonly CatalogRemoval[] {
  return [...removed].sort((a, b) => Date.parse(a.modified) - Date.parse(b.modified) || compareListingOrder(a.id, b.id));
}

/**
 * Each record's hash from the table and texts, for a snapshot whose source did not keep them (a snapshot
 * file): its dates written as the importer writes them (ISO 8601, UTC), so the sum matches the version of
 * an imported catalog.
 */
function hashesOf(table: RecordTable, texts: TextStore): RecordHashes {
  const column = new BigUint64Array(table.size);
  for (let position = 0; position < table.size; position++) {
    const changed = table.changed.get(position);
    column[position] = recordHash(
      {
        ...recordAt(table, position),
        summary: texts.summary(position),
        published: publishedAt(table, position),
        modified: modifiedAt(table, position),
        changed: changed === undefined ? undefined : new Date(changed).toISOString(),
      },
      texts.details(position),
    );
  }
  return { column, sum: sumHashes(0n, column) };
}

/** The API's view of the records at some positions, in order. */
export function recordsAt(snapshot: Snapshot, positions: Iterable<number>): CveRecord[] {
  const records: CveRecord[] = [];
  for (const position of positions) records.push(recordAt(snapshot.table, position));
  return records;
}
