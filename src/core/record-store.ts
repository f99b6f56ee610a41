// The store of record as the rest of the program sees it, whichever engine holds it (SQLite or
// PostgreSQL: catalog/store/schema.ts, catalog/sqlite, catalog/postgres). A sync step runs in one write transaction: it reads what it needs of the records
// it brings (never the catalog), writes the rows it changed stamped with the step's sequence, and moves the
// cursor, all committed together or not at all. A server reads the rows past the sequence it holds.
import type { CatalogProject, CatalogRecord, CatalogRemoval, SyncCursor } from '../contract/index.js';
import type { DetailFilters } from './record-table.js';
import type { TextStore } from './text-store.js';

/**
 * What the store's writers work out of a record when they write it, having checked it (catalog/store/
 * row-facts.ts), kept in its row: a server builds its columns from these without parsing the details.
 */
export interface RowFacts {
  readonly filters: DetailFilters;
  /** The record's content hash (content-hash.ts). */
  readonly hash: bigint;
}

/**
 * A record as the store holds it: its own fields, and its details as JSON text (detailsJson's form).
 * `facts`, when read from a row that has them. A store with texts on demand (RecordStore.textsOf) leaves
 * the summary and details out of a row that has its facts in a narrow read and in a change.
 */
export interface StoredRecord {
  readonly record: CatalogRecord;
  readonly details: string | undefined;
  readonly facts?: RowFacts | undefined;
}

export interface StoreState {
  /** Made when the store was created: a checkpoint of another store is never applied to this one. */
  readonly storeId: string;
  /** The last step committed (0: none). */
  readonly sequence: number;
  readonly lastVerified: string;
  readonly sync: SyncCursor | undefined;
  /** The newest time the change feed lists (a record's `changed` or `modified`, a removal's time), in ms. */
  readonly feedEnd: number;
}

/** What one write transaction may read and write; every write is stamped with the step's sequence. */
export interface StoreWriter {
  /** The store as the step found it. */
  readonly state: StoreState;
  /** The records held and the removals kept for these ids. */
  held(ids: readonly string[]): Promise<{ records: Map<string, StoredRecord>; removals: Map<string, string> }>;
  /** The other spellings held for these projects. */
  aliasesOf(names: readonly string[]): Promise<Map<string, string[]>>;
  /** What a delta's spellings are mapped onto, of the names, groups and products `lookups` asks for. */
  knownNames(lookups: NameLookups): Promise<KnownNames>;
  upsert(records: readonly StoredRecord[]): Promise<void>;
  /** Records that leave, each kept as a removal (replacing an earlier one of the id). */
  remove(removals: readonly CatalogRemoval[]): Promise<void>;
  setAliases(projects: readonly CatalogProject[]): Promise<void>;
  /**
   * The project each vendor's group of spellings was named (`productKey@vendorKey`, see groupKey): all of
   * them when `whole` (a baseline, named over itself), else added to those held. Read by later steps
   * only, never served: writing them moves no sequence.
   */
  setGroups(groups: ReadonlyMap<string, string>, whole: boolean): Promise<void>;
}

/** The keys a delta's spellings are looked up by (import/canonical-projects.ts, aliasKeys), by kind. */
export interface NameLookups {
  /** Compact keys (core/compact-key.ts) of spellings. */
  readonly names: readonly string[];
  /** Keys of vendors' groups of spellings (`productKey@vendorKey`). */
  readonly groups: readonly string[];
  /** Product keys of spellings without a vendor: a group's product key, alone or after its vendor's key. */
  readonly products: readonly string[];
}

/** What a store holds of the names a delta's spellings are looked up by (NameLookups), never all it holds. */
export interface KnownNames {
  /**
   * The project names records use whose compact key is one of the lookups' names, and the projects of the
   * groups given, each with how many records use it; in the order of the names' UTF-8 bytes.
   */
  readonly projects: ReadonlyMap<string, number>;
  /**
   * Every project's spellings, only from a store that holds no groups (written before they were kept,
   * until its next baseline), whose delta maps spellings by spelling alone.
   */
  readonly aliases?: readonly CatalogProject[];
  /**
   * As setGroups wrote them, those asked for and those of the products asked for (their product key alone
   * or after their vendor's), in the order of their keys' UTF-8 bytes.
   */
  readonly groups: ReadonlyMap<string, string>;
}

/** What a step ends with: the catalog row's new values. */
export interface StepEnd {
  readonly lastVerified: string;
  readonly sync: SyncCursor | undefined;
  readonly feedEnd: number;
}

/** The rows written after a sequence, as a server applies them (core/snapshot-delta.ts). */
export interface StoreChanges {
  readonly sequence: number;
  readonly lastVerified: string;
  readonly upserted: readonly StoredRecord[];
  readonly removed: readonly CatalogRemoval[];
  readonly projects: readonly CatalogProject[];
}

/** Everything the store holds, read in one transaction, a batch of records at a time. */
export interface StoreContents {
  readonly state: StoreState;
  readonly removed: readonly CatalogRemoval[];
  readonly projects: readonly CatalogProject[];
  readonly records: AsyncIterable<StoredRecord[]>;
}

export interface RecordStore {
  /** Names the store in logs and errors (a file path, or PostgreSQL). */
  readonly name: string;
  state(): Promise<StoreState>;
  /**
   * Runs `work` in one write transaction and commits it with its `end`: the sequence moves by one when a
   * row was written or lastVerified changed, and stays where it was otherwise (a step that only moves the
   * cursor). A throw rolls everything back. Steps never overlap (SQLite's write lock, a row lock on PostgreSQL).
   */
  step<T>(work: (writer: StoreWriter) => Promise<{ end: StepEnd; result: T }>): Promise<{ sequence: number; result: T }>;
  /** The rows written after `sequence`, or undefined when there are none; `limit`: undefined past so many rows. */
  changesSince(sequence: number, limit: number): Promise<StoreChanges | undefined | 'too-many'>;
  /**
   * The whole store, read consistently, for `work` to consume before the transaction ends; `narrow`: rows
   * with facts without their texts, where the store reads texts on demand (textsOf).
   */
  read<T>(work: (contents: StoreContents) => Promise<T>, options?: { narrow?: boolean }): Promise<T>;
  /**
   * Where the engine reads a row in microseconds (SQLite in this process): the texts of the records of
   * `ids` (by position), read from their rows when asked for, so a server copies no texts at all. A row
   * is read only as the snapshot holds it: one whose facts are gone (written by another program) is read
   * only when it hashes as `hashOf` its position says, else as having no texts.
   */
  readonly textsOf?: ((ids: readonly string[], hashOf: (position: number) => bigint) => TextStore) | undefined;
  close(): Promise<void>;
}

/** The feed time of a record as the store holds it, in ms (-Infinity when it has none). */
export function feedTime(record: CatalogRecord): number {
  const time = Date.parse(record.changed ?? record.modified ?? '');
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
}

/** A records-table row as both engines read it (times as ISO 8601 text, details as JSON text). */
export interface RecordRow {
  id: string;
  project: string;
  status: string;
  url: string | null;
  summary: string | null;
  published: string | null;
  modified: string | null;
  changed: string | null;
  details: string | null;
}

/** A row read back as a record: SQL NULLs become absent fields (and so does a summary not read). */
export function recordOfRow(row: Omit<RecordRow, 'details' | 'summary'> & { summary?: string | null }): CatalogRecord {
  return {
    id: row.id,
    project: row.project,
    status: row.status as CatalogRecord['status'],
    url: row.url,
    ...((row.summary ?? null) === null ? {} : { summary: row.summary! }),
    ...(row.published === null ? {} : { published: row.published }),
    ...(row.modified === null ? {} : { modified: row.modified }),
    ...(row.changed === null ? {} : { changed: row.changed }),
  };
}

export class StoreError extends Error {}
