import type { CveRecord, ListFilterValues, RecordDetails } from '../contract/index.js';

/** A record of a snapshot with what only pages, search and details show: its dates, summary and details. */
export interface RecordEntry {
  /** The record's place in listing order. */
  readonly position: number;
  readonly record: CveRecord;
  readonly published: string | undefined;
  /** When the record last changed upstream (ISO 8601, UTC), when known. */
  readonly modified: string | undefined;
  /** Read when asked for: a snapshot file keeps summaries on disk. */
  readonly summary: string | undefined;
  /** Read and parsed when asked for, each time: details are kept as JSON outside the JS heap. */
  readonly details: RecordDetails | undefined;
}

/** What a list selects on, by the contract's table of filters (contract/list-filters.ts); a cursor is bound to it. */
export type ListFilters = ListFilterValues;
