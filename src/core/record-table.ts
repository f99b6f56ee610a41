// The records of a snapshot as columns, one entry per record in listing order (a record's position is
// its place in that order). Columns are typed arrays and one array of ids, with no object per record:
// 340,000 records cost a few megabytes, and a snapshot file is read into them without parsing.
import type { CatalogRecord, CveRecord, RecordDetails, RecordStatus, Severity } from '../contract/index.js';
import { CVE_RECORD_URL_PREFIX } from './cve-id.js';
import { highestSeverityCode, severityOfCode } from './severity.js';

export const STATUS_CODES: readonly RecordStatus[] = ['public', 'assigned-no-public-record'];
const STATUS_CODE: Readonly<Record<RecordStatus, number>> = { public: 0, 'assigned-no-public-record': 1 };

/** A published date as days since 1970-01-01; NO_DATE when a record has none. */
export const NO_DATE = -2147483648;

export interface RecordTable {
  readonly size: number;
  /** CVE ids in listing order. */
  readonly ids: readonly string[];
  /** Project names, sorted; a record's project is an index into it. */
  readonly projectNames: readonly string[];
  readonly projectOf: Uint32Array;
  /** Index into STATUS_CODES. */
  readonly status: Uint8Array;
  /** Days since 1970-01-01, or NO_DATE. */
  readonly published: Int32Array;
  /** When each record last changed, in milliseconds since 1970 (UTC); NaN when unknown. */
  readonly modified: Float64Array;
  /** The year of each id, what year words of a search filter on. */
  readonly year: Uint16Array;
  /** Public records whose url is not the cve.org page of their id (another page, or none), by position. */
  readonly otherUrls: ReadonlyMap<number, string | null>;
  /** The few records a sync took after upstream's time for them (ms since 1970), by position: see CatalogRecord.changed. */
  readonly changed: ReadonlyMap<number, number>;
  /** Each record's highest CVSS severity, an index into SEVERITIES, or NO_SEVERITY: what the `severity` filter reads. */
  readonly severity: Uint8Array;
  /** 1 for a record in CISA's KEV catalog, else 0. */
  readonly kev: Uint8Array;
  /** The CWE ids records name, sorted; a record's are indexes into it, cweOf[cweStarts[p], cweStarts[p + 1]). */
  readonly cweNames: readonly string[];
  readonly cweStarts: Uint32Array;
  readonly cweOf: Uint32Array;
}

/** What the filters select on in a record's details: its highest severity code, KEV, and the CWE ids it names. */
export interface DetailFilters {
  readonly severity: number;
  readonly kev: boolean;
  readonly cwes: readonly string[];
}

export function detailFilters(details: RecordDetails | undefined): DetailFilters {
  return {
    severity: highestSeverityCode(details?.metrics ?? []),
    kev: Boolean(details?.kev),
    cwes: [...new Set(details?.problemTypes.flatMap((type) => (type.cweId === null ? [] : [type.cweId.toUpperCase()])))],
  };
}

/**
 * A record as the table keeps it: its own fields and what the filters read of its details, so a source can
 * hand the details themselves elsewhere (PostgreSQL writes them to a file as it reads them).
 */
export type TableRecord = Omit<CatalogRecord, 'summary' | 'details'> & { readonly filters: DetailFilters };

/** A catalog record's table entry. */
export function tableRecord(record: CatalogRecord): TableRecord {
  return { ...record, filters: detailFilters(record.details) };
}

/** The columns of records, which must be in listing order already. */
export function recordTable(records: readonly TableRecord[]): RecordTable {
  const size = records.length;
  const projectNames = [...new Set(records.map((record) => record.project))].sort();
  const projectIndex = new Map(projectNames.map((name, index) => [name, index]));
  const projectOf = new Uint32Array(size);
  const status = new Uint8Array(size);
  const published = new Int32Array(size);
  const modified = new Float64Array(size);
  const year = new Uint16Array(size);
  const otherUrls = new Map<number, string | null>();
  const changed = new Map<number, number>();
  const severity = new Uint8Array(size);
  const kev = new Uint8Array(size);
  const cweNames = [...new Set(records.flatMap((record) => record.filters.cwes))].sort();
  const cweIndex = new Map(cweNames.map((name, index) => [name, index]));
  const cweStarts = new Uint32Array(size + 1);
  const cweOf = new Uint32Array(records.reduce((sum, record) => sum + record.filters.cwes.length, 0));
  records.forEach((record, position) => {
    severity[position] = record.filters.severity;
    kev[position] = record.filters.kev ? 1 : 0;
    const { cwes } = record.filters;
    cwes.forEach((cwe, i) => {
      cweOf[cweStarts[position]! + i] = cweIndex.get(cwe)!;
    });
    cweStarts[position + 1] = cweStarts[position]! + cwes.length;
    if (record.changed !== undefined) changed.set(position, Date.parse(record.changed));
    projectOf[position] = projectIndex.get(record.project)!;
    status[position] = STATUS_CODE[record.status];
    published[position] = record.published === undefined ? NO_DATE : Date.parse(record.published) / 86_400_000;
    modified[position] = record.modified === undefined ? Number.NaN : Date.parse(record.modified);
    year[position] = Number(record.id.slice(4, 8));
    if (record.status === 'public' && record.url !== CVE_RECORD_URL_PREFIX + record.id) otherUrls.set(position, record.url);
  });
  return {
    size,
    ids: records.map((record) => record.id),
    projectNames,
    projectOf,
    status,
    published,
    modified,
    year,
    otherUrls,
    changed,
    severity,
    kev,
    cweNames,
    cweStarts,
    cweOf,
  };
}

/** The record at a position, as the API serves it. */
export function recordAt(table: RecordTable, position: number): CveRecord {
  const id = table.ids[position]!;
  const status = STATUS_CODES[table.status[position]!]!;
  return {
    id,
    project: table.projectNames[table.projectOf[position]!]!,
    status,
    url: status !== 'public' ? null : table.otherUrls.has(position) ? table.otherUrls.get(position)! : CVE_RECORD_URL_PREFIX + id,
  };
}

/** When the record at a position last changed (ISO 8601, UTC), when that is known. */
export function modifiedAt(table: RecordTable, position: number): string | undefined {
  const time = table.modified[position]!;
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** The published date (YYYY-MM-DD) of the record at a position, when it has one. */
export function publishedAt(table: RecordTable, position: number): string | undefined {
  const days = table.published[position]!;
  return days === NO_DATE ? undefined : new Date(days * 86_400_000).toISOString().slice(0, 10);
}

/** Whether the record at a position names the CWE of a code (an index into cweNames). */
export function namesCwe(table: RecordTable, position: number, code: number): boolean {
  const { cweStarts, cweOf } = table;
  for (let i = cweStarts[position]!; i < cweStarts[position + 1]!; i++) if (cweOf[i] === code) return true;
  return false;
}

/** The highest CVSS severity of the record at a position; null when it has no CVSS metric. */
export function severityAt(table: RecordTable, position: number): Severity | null {
  return severityOfCode(table.severity[position]!);
}
