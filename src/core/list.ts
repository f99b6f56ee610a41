import { type CveRecordPage, PAGE_LIMIT, type RecordStatus, ServiceError, type Severity } from '../contract/index.js';
import type { CursorCodec } from './cursor.js';
import { compareListingOrder } from './cve-id.js';
import type { Candidates } from './filter-index.js';
import type { ListFilters, Snapshot } from './snapshot.js';
import { recordsAt } from './snapshot.js';
import { projectNameKeys } from './versions/version-index.js';

export const PAGE_SCHEMA_VERSION = '1.0';

export interface ListQuery {
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
  readonly project?: string | undefined;
  readonly status?: RecordStatus | undefined;
  readonly severity?: Severity | undefined;
  readonly kev?: boolean | undefined;
  readonly cwe?: string | undefined;
  readonly published_since?: string | undefined;
  readonly published_before?: string | undefined;
  readonly version?: string | undefined;
  readonly include_unknown?: boolean | undefined;
}

/** The filters of a list request, in the core's spelling. */
export function listFilters(query: ListQuery): ListFilters {
  return {
    project: query.project,
    status: query.status,
    severity: query.severity,
    kev: query.kev,
    cwe: query.cwe?.toUpperCase(),
    publishedSince: query.published_since,
    publishedBefore: query.published_before,
    version: query.version,
    includeUnknown: query.include_unknown,
  };
}

/** Where a page is, before any record is made: its records' positions, and its pagination. */
export interface PagePlan {
  readonly positions: readonly number[];
  readonly limit: number;
  readonly total: number;
  readonly nextCursor: string | null;
}

/**
 * The positions of the records meeting the filters on one page. The cursor names the last record of the
 * previous page, so the page starts by bisection in the smallest list that applies, whatever its depth; a
 * record the cursor names that is gone since (a reload) still marks the place where it was.
 */
export function planPage(snapshot: Snapshot, query: ListQuery, cursors: CursorCodec): PagePlan {
  const limit = query.limit ?? PAGE_LIMIT.default;
  const filters = listFilters(query);
  const candidates = withVersion(snapshot, filters, snapshot.filters.candidates(filters));
  const { positions, accept } = candidates;
  const start = query.cursor === undefined ? 0 : firstAfter(snapshot, positions, cursors.decode(query.cursor, filters));
  const page: number[] = [];
  let more = false;
  for (let i = start; i < positions.length; i++) {
    const position = positions[i]!;
    if (accept && !accept(position)) continue;
    if (page.length === limit) {
      more = true;
      break;
    }
    page.push(position);
  }
  const last = page.at(-1);
  return {
    positions: page,
    limit,
    total: snapshot.filters.total(filters, candidates),
    nextCursor: more && last !== undefined ? cursors.encode(snapshot.table.ids[last]!, filters) : null,
  };
}

/** A page of the records meeting the filters (see planPage). */
export function listRecords(snapshot: Snapshot, query: ListQuery, cursors: CursorCodec): CveRecordPage {
  const { positions, limit, total, nextCursor } = planPage(snapshot, query, cursors);
  const records = recordsAt(snapshot, positions);
  return {
    schemaVersion: PAGE_SCHEMA_VERSION,
    lastVerified: snapshot.lastVerified,
    records,
    pagination: { limit, returned: records.length, total, nextCursor },
  };
}

/**
 * Whether what the filters read is built. The version index is not built at load (it reads every record's
 * details: 30 MB and 3 s at the sample's 17,000 records); the first version filter builds it with
 * `prepareFilters`, in steps between other requests, so that one query never stops the service.
 */
export function filtersReady(snapshot: Snapshot, filters: Pick<ListFilters, 'version'>): boolean {
  return filters.version === undefined || snapshot.versions.built;
}

export async function prepareFilters(snapshot: Snapshot, filters: Pick<ListFilters, 'version'>): Promise<void> {
  if (!filtersReady(snapshot, filters)) await snapshot.versions.prepare();
}

/**
 * The candidates narrowed to the records whose entries for the project say the version is affected (or
 * cannot tell, when asked): checked on the project's own position list, never on the whole catalog.
 */
function withVersion(snapshot: Snapshot, filters: ListFilters, candidates: Candidates): Candidates {
  const { version, project } = filters;
  if (version === undefined) {
    if (filters.includeUnknown !== undefined) throw new ServiceError('invalid_parameter', '`include_unknown` is read only with `version`.');
    return candidates;
  }
  if (project === undefined) throw new ServiceError('invalid_parameter', '`version` needs `project`: the version of which project.');
  const index = snapshot.versions.get();
  const names = projectNameKeys(project, snapshot.aliases.get(project) ?? []);
  const accepted: ReadonlySet<string> = new Set(filters.includeUnknown ? ['affected', 'unknown'] : ['affected']);
  const { accept } = candidates;
  return {
    positions: candidates.positions,
    accept: (position) => (accept === undefined || accept(position)) && accepted.has(index.checkProject(position, version, names).status),
  };
}

/** Index in `positions` of the first record that comes after `id` in listing order (bisection). */
function firstAfter(snapshot: Snapshot, positions: Int32Array, id: string): number {
  const { ids } = snapshot.table;
  let low = 0;
  let high = positions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareListingOrder(ids[positions[middle]!]!, id) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
