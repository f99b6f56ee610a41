// What a writer of the store works out of each record it writes, and keeps in the record's row (migration
// 6, schema.ts): the record checked as a catalog file's record is checked (catalog-validation.ts), what the
// list filters read of its details (highest severity, KEV, CWE ids) and its content hash. A step with a row
// that fails its check fails whole, naming the record, so a row with facts was checked when written; a
// server then builds its columns from the facts without parsing or checking any details. A row without
// them (an older store, or a row another program wrote, whose facts the schema clears) is checked and its
// facts worked out where it is read.
import type { RecordDetails } from '../../contract/index.js';
import { recordHash } from '../../core/content-hash.js';
import type { RowFacts, StoredRecord } from '../../core/record-store.js';
import { type DetailFilters, detailFilters } from '../../core/record-table.js';
import { type CatalogProblem, recordProblems } from '../catalog-validation.js';

export class InvalidRowError extends Error {}

/** The facts of a record about to be written; an InvalidRowError when it fails its check. */
export function checkedFacts({ record, details }: StoredRecord): RowFacts {
  const problems: CatalogProblem[] = [];
  const facts = factsOrProblems({ record, details }, `/records/${record.id}`, problems);
  if (facts === undefined) throw new InvalidRowError(`${problems[0]!.pointer}: ${problems[0]!.problem}; nothing of the step written`);
  return facts;
}

/** The facts of a record read whole, or undefined with its problems added to `problems`. */
export function factsOrProblems({ record, details }: StoredRecord, pointer: string, problems: CatalogProblem[]): RowFacts | undefined {
  const parsed = details === undefined ? undefined : (JSON.parse(details) as RecordDetails);
  const before = problems.length;
  recordProblems(parsed === undefined ? record : { ...record, details: parsed }, pointer, problems);
  if (problems.length > before) return undefined;
  return { filters: detailFilters(parsed), hash: recordHash(record, details) };
}

/** The facts as the row's columns hold them. */
export interface FactColumns {
  severity: number | null;
  kev: number | null;
  /** The CWE ids as a JSON array. */
  cwes: string | null;
  content_hash: string | null;
}

export function factColumns({ filters, hash }: RowFacts): FactColumns {
  return {
    severity: filters.severity,
    kev: filters.kev ? 1 : 0,
    cwes: JSON.stringify(filters.cwes),
    content_hash: hash.toString(16).padStart(16, '0'),
  };
}

/**
 * The facts of a row as read, or undefined when it has none. `filterSets` keeps one copy of each distinct
 * filter set across the rows of a read (a few hundred distinct sets among 340,000 records).
 */
export function factsOfColumns(row: FactColumns, filterSets?: Map<string, DetailFilters>): RowFacts | undefined {
  if (row.content_hash === null || row.severity === null || row.kev === null || row.cwes === null) return undefined;
  const key = `${row.severity} ${row.kev} ${row.cwes}`;
  let filters = filterSets?.get(key);
  if (filters === undefined) {
    filters = { severity: row.severity, kev: row.kev === 1, cwes: JSON.parse(row.cwes) as string[] };
    filterSets?.set(key, filters);
  }
  return { filters, hash: BigInt(`0x${row.content_hash}`) };
}
