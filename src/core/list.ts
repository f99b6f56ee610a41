import { type CveRecord, type CveRecordPage, PAGE_LIMIT, type RecordStatus } from '../contract/index.js';
import type { CursorCodec } from './cursor.js';
import { compareListingOrder } from './cve-id.js';
import type { Snapshot } from './snapshot.js';

export const PAGE_SCHEMA_VERSION = '1.0';

export interface ListQuery {
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
  readonly project?: string | undefined;
  readonly status?: RecordStatus | undefined;
}

export function listRecords(snapshot: Snapshot, query: ListQuery, cursors: CursorCodec): CveRecordPage {
  const limit = query.limit ?? PAGE_LIMIT.default;
  const filters = { project: query.project, status: query.status };
  const matching = snapshot.select(filters);
  const start = query.cursor === undefined ? 0 : firstAfter(matching, cursors.decode(query.cursor, filters));
  const records = matching.slice(start, start + limit);
  const last = records.at(-1);
  const hasMore = start + limit < matching.length;
  return {
    schemaVersion: PAGE_SCHEMA_VERSION,
    lastVerified: snapshot.lastVerified,
    records,
    pagination: {
      limit,
      returned: records.length,
      total: matching.length,
      nextCursor: hasMore && last ? cursors.encode(last.id, filters) : null,
    },
  };
}

/** Index of the first record that comes after `id` in listing order (binary search). */
function firstAfter(records: readonly CveRecord[], id: string): number {
  let low = 0;
  let high = records.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compareListingOrder(records[mid]!.id, id) <= 0) low = mid + 1;
    else high = mid;
  }
  return low;
}
