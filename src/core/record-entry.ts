import type { CveRecord, RecordStatus } from '../contract/index.js';

/** A record of a snapshot with what only pages and search show: its published date and summary. */
export interface RecordEntry {
  /** The record's place in listing order. */
  readonly position: number;
  readonly record: CveRecord;
  readonly published: string | undefined;
  /** When the record last changed upstream (ISO 8601, UTC), when known. */
  readonly modified: string | undefined;
  /** Read when asked for: a snapshot file keeps summaries on disk. */
  readonly summary: string | undefined;
}

export interface ListFilters {
  readonly project?: string | undefined;
  readonly status?: RecordStatus | undefined;
}
