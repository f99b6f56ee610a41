import type { CveRecord, RecordDetails, RecordStatus, Severity } from '../contract/index.js';

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

/** What a list selects on; a cursor is bound to all of it. */
export interface ListFilters {
  readonly project?: string | undefined;
  readonly status?: RecordStatus | undefined;
  readonly severity?: Severity | undefined;
  readonly kev?: boolean | undefined;
  /** A CWE id in upper case, e.g. `CWE-79`. */
  readonly cwe?: string | undefined;
  /** Published on this day (YYYY-MM-DD) or later. */
  readonly publishedSince?: string | undefined;
  /** Published before this day (YYYY-MM-DD). */
  readonly publishedBefore?: string | undefined;
  /** A version the records' affected entries for `project` (or `purl`, `cpe`) say is affected (core/versions). */
  readonly version?: string | undefined;
  /** With `version`: also the records that cannot tell. */
  readonly includeUnknown?: boolean | undefined;
  /** A package URL the records' affected products name (by collection and package name); its version is checked too. */
  readonly purl?: string | undefined;
  /** A CPE 2.3 name the records' affected products' CPE names match; its version is checked too. */
  readonly cpe?: string | undefined;
}
