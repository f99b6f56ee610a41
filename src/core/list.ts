import { type CveRecordPage, type ListFilterName, PAGE_LIMIT, ServiceError } from '../contract/index.js';
import type { CursorCodec } from './cursor.js';
import { compareListingOrder } from './cve-id.js';
import { inSteps } from './derived.js';
import { type Candidates, FILTER_READERS, hasFilters, NO_FILTERS } from './filter-index.js';
import { partitionPoint } from './partition-point.js';
import type { ListFilters, Snapshot } from './snapshot.js';
import { recordsAt } from './snapshot.js';
import { prepareSubjects, subjectsReady, versionSubjects } from './version-subjects.js';

export const PAGE_SCHEMA_VERSION = '1.0';

/** A list request: a page of the records meeting the filters of the contract's table. */
export interface ListQuery extends ListFilters {
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
}

/** The filters' names in the contract's table's order. */
const FILTER_NAMES = Object.keys(FILTER_READERS) as ListFilterName[];

/** The filters of a list request, each in the spelling the index keeps, in the table's order. */
export function listFilters(query: ListQuery): ListFilters {
  // Most list requests give no filter: then no name is read (NO_FILTERS).
  if (!hasFilters(query as Readonly<Record<string, unknown>>)) return NO_FILTERS;
  const filters: Record<string, unknown> = {};
  for (const name of FILTER_NAMES) {
    const value = query[name];
    const canonical = FILTER_READERS[name].canonical as ((value: unknown) => unknown) | undefined;
    if (value !== undefined) filters[name] = canonical ? canonical(value) : value;
  }
  return filters as ListFilters;
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
 * Whether a version, purl or CPE filter can be answered at once. Such a filter reads a part of the version
 * index, not built at load (a project's ranges read its records' details, the package and CPE lists every
 * record's: a quarter of a second at the sample's 17,000 records), and checks each record of its subject to
 * count the page's `total`: `prepareFilters` builds the part and counts in steps between other requests, so that one query never stops the service, and the
 * page then finds its total counted.
 */
export function filtersReady(snapshot: Snapshot, query: ListQuery): boolean {
  if (query.version === undefined && query.purl === undefined && query.cpe === undefined) return true;
  return subjectsReady(snapshot, [query]) && snapshot.filters.knownTotal(listFilters(query)) !== undefined;
}

export async function prepareFilters(snapshot: Snapshot, query: ListQuery): Promise<void> {
  if (filtersReady(snapshot, query)) return;
  await prepareSubjects(snapshot, [query]);
  const filters = listFilters(query);
  let candidates: Candidates;
  try {
    candidates = withVersion(snapshot, filters, snapshot.filters.candidates(filters));
  } catch (error) {
    // The page itself refuses these filters, with the same error.
    if (error instanceof ServiceError) return;
    throw error;
  }
  if (candidates.accept === undefined || snapshot.filters.knownTotal(filters) !== undefined) return;
  snapshot.filters.rememberTotal(filters, await inSteps(countSteps(candidates)));
}

/** How many candidates are accepted, 500 checks a step. */
function* countSteps({ positions, accept }: Candidates): Generator<void, number, void> {
  let count = 0;
  for (let i = 0; i < positions.length; i++) {
    if (i % 500 === 499) yield;
    if (accept === undefined || accept(positions[i]!)) count++;
  }
  return count;
}

/**
 * The candidates narrowed by the version subjects (version-subjects.ts): the records whose entries for the
 * project, the package or the CPE say the version is affected (or cannot tell, when asked), or, without a
 * version, that name the package or CPE. Walked on the shortest list that applies, never the whole catalog
 * when a subject is given; a project's list at a version is the records its ranges find there.
 */
function withVersion(snapshot: Snapshot, filters: ListFilters, candidates: Candidates): Candidates {
  if (filters.version === undefined && filters.purl === undefined && filters.cpe === undefined && filters.include_unknown === undefined) {
    return candidates;
  }
  const subjects = versionSubjects(snapshot, { ...filters, includeUnknown: filters.include_unknown });
  if (filters.include_unknown !== undefined && !subjects.some((subject) => subject.version !== undefined)) {
    throw new ServiceError('invalid_parameter', '`include_unknown` is read only with a version (`version`, or one in `purl` or `cpe`).');
  }
  if (subjects.length === 0) return candidates;
  let { positions } = candidates;
  for (const subject of subjects) if (subject.positions.length < positions.length) positions = subject.positions;
  const others = snapshot.filters.matcher(filters);
  return {
    positions,
    accept: (position) =>
      (others === undefined || others(position)) && subjects.every((subject) => subject.askedStatus(position) !== undefined),
  };
}

/**
 * Index in `positions` (ascending, as the table is in listing order) of the first record that comes after
 * `id` in listing order. The id's own position places it by one look-up, and the rest is a bisection of
 * numbers, whatever the depth; only an id whose record is gone since (a reload) is placed among the table's
 * ids by comparing them. Comparing ids along the bisection cut each of some 13 ids in four (1.4 µs of CPU a
 * page: docs/PERFORMANCE.md, "Deep version pages, stop 37").
 */
function firstAfter(snapshot: Snapshot, positions: Int32Array, id: string): number {
  const own = snapshot.positionOf(id);
  const next = own === undefined ? placeAmong(snapshot.table.ids, id) : own + 1;
  return partitionPoint(0, positions.length, (i) => positions[i]! < next);
}

/** The position of the first id that comes after `id` in listing order (bisection). */
function placeAmong(ids: readonly string[], id: string): number {
  return partitionPoint(0, ids.length, (i) => compareListingOrder(ids[i]!, id) <= 0);
}
