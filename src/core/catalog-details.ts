// The details of a catalog's records as its writers and its content hash read them: each one's text as
// text stores keep it (detailsJson) and what the filters read of it, by the record's index in the catalog's
// records. A catalog read whole holds its details as objects; an import keeps them in a temporary file
// (import/details-spool.ts), so that 340,000 records' details (about 650 MB as JSON) are never in memory.
import type { CatalogRecord } from '../contract/index.js';
import { detailsJson } from './details-json.js';
import { type DetailFilters, detailFilters } from './record-table.js';

export interface CatalogDetails {
  /** The details of the record at an index as JSON in the contract's field order, when it has them. */
  text(index: number): string | undefined;
  /** The UTF-8 byte length of that text; -1 when the record has no details. */
  byteLength(index: number): number;
  filters(index: number): DetailFilters;
}

/** The details the records hold as objects. */
export function objectDetails(records: readonly CatalogRecord[]): CatalogDetails {
  const text = (index: number) => {
    const details = records[index]!.details;
    return details === undefined ? undefined : detailsJson(details);
  };
  return {
    text,
    byteLength: (index) => {
      const json = text(index);
      return json === undefined ? -1 : Buffer.byteLength(json);
    },
    filters: (index) => detailFilters(records[index]!.details),
  };
}

/**
 * A record as a catalog line: its fields in the catalog's order, the details text spliced in as it is.
 * Whatever the record object holds as details is left out; `details` says what they are.
 */
export function catalogRecordJson(r: CatalogRecord, details: string | undefined): string {
  const ordered: CatalogRecord = { id: r.id, project: r.project, status: r.status, url: r.url };
  if (r.summary !== undefined) ordered.summary = r.summary;
  if (r.published !== undefined) ordered.published = r.published;
  if (r.modified !== undefined) ordered.modified = r.modified;
  const own = JSON.stringify(ordered).slice(0, -1);
  return `${own}${details === undefined ? '' : `,"details":${details}`}${r.changed === undefined ? '' : `,"changed":${JSON.stringify(r.changed)}`}}`;
}
