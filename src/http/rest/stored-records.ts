// Each record's JSON bytes and strong ETag, made once per snapshot and kept, so get-one writes stored
// bytes and a list page splices them. Kept lazily and bounded: a 340,000-record catalog is about 60 MB
// of JSON, and most traffic asks for a few records many times.
import { recordAt } from '../../core/record-table.js';
import type { Snapshot } from '../../core/snapshot.js';
import { entityTag } from '../edge/caching.js';

export interface StoredRecord {
  /**
   * The record as get-one sends it: JSON.stringify of the contract's object, fields in schema order. A
   * string, not a Buffer: Node writes a string body in one write with the header, a Buffer as a second chunk.
   */
  readonly body: string;
  /** The strong ETag of `body`, as the caching hook would compute it from the bytes. */
  readonly etag: string;
}

/**
 * Two generations: a record is made into the young one; when it is full the young one becomes the old one
 * (and the old one is dropped); a record found in the old one is moved to the young one. At most twice
 * `generationSize` records are held, and the often-asked ones stay, with O(1) work per look-up.
 */
class RecordBytes {
  #young = new Map<number, StoredRecord>();
  #old = new Map<number, StoredRecord>();

  constructor(
    private readonly snapshot: Snapshot,
    private readonly generationSize: number,
  ) {}

  at(position: number): StoredRecord {
    const young = this.#young.get(position);
    if (young) return young;
    const stored = this.#old.get(position) ?? this.#make(position);
    if (this.#young.size >= this.generationSize) {
      this.#old = this.#young;
      this.#young = new Map();
    }
    this.#young.set(position, stored);
    return stored;
  }

  #make(position: number): StoredRecord {
    const body = JSON.stringify(recordAt(this.snapshot.table, position));
    return { body, etag: entityTag(this.snapshot.version, body) };
  }
}

/** Up to 2 x 50,000 records (about 30 MB with their tags and the maps) per snapshot. */
const GENERATION_SIZE = 50_000;

/** Per snapshot, so a reload starts afresh and the old bytes are collected with the old snapshot. */
const stores = new WeakMap<Snapshot, RecordBytes>();

export function storedRecord(snapshot: Snapshot, position: number): StoredRecord {
  return storedRecords(snapshot).at(position);
}

/** The snapshot's stored records, for a caller that reads several (a page: one look-up of the snapshot's, not one a record). */
export function storedRecords(snapshot: Snapshot): { at(position: number): StoredRecord } {
  let store = stores.get(snapshot);
  if (!store) {
    store = new RecordBytes(snapshot, GENERATION_SIZE);
    stores.set(snapshot, store);
  }
  return store;
}
