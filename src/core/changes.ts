import { CHANGES_LIMIT, type ChangesQuery, type RecordChange, type RecordChangesPage, ServiceError } from '../contract/index.js';
import { isCalendarMoment } from './calendar.js';
import { type ChangePoint, firstAfter } from './change-order.js';
import type { CursorCodec } from './cursor.js';
import { compareListingOrder } from './cve-id.js';
import { PAGE_SCHEMA_VERSION } from './list.js';
import { modifiedAt, recordAt } from './record-table.js';
import type { Snapshot } from './snapshot.js';

/** The start of change order: before every change, including those whose time is unknown. */
const BEGINNING: ChangePoint = { time: Number.NEGATIVE_INFINITY, id: undefined };
/** A date-time with its offset, or a date (midnight UTC). */
const DATE_OR_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):(\d{2})))?$/i;

/**
 * The changes after a point, oldest first: records (as they are now) merged with removals, both in
 * change order. The token of the last change returned is where the next page, or the next poll, starts;
 * it names a time and an id, not a position, so it stays valid across catalog versions.
 */
export function listChanges(snapshot: Snapshot, query: ChangesQuery, tokens: CursorCodec): RecordChangesPage {
  const limit = query.limit ?? CHANGES_LIMIT.default;
  const since = query.since === undefined ? BEGINNING : parseSince(query.since, tokens);
  const order = snapshot.changes.get();
  const { ids } = snapshot.table;
  const recordCount = order.positions.length;
  let r = firstAfter(
    recordCount,
    (i) => order.times[i]!,
    (i) => ids[order.positions[i]!]!,
    since,
  );
  let d = firstAfter(
    order.removed.length,
    (i) => order.removedTimes[i]!,
    (i) => order.removed[i]!.id,
    since,
  );
  const changes: RecordChange[] = [];
  let last = since;
  while (changes.length < limit && (r < recordCount || d < order.removed.length)) {
    const takeRemoval =
      r === recordCount ||
      (d < order.removed.length &&
        (order.removedTimes[d]! < order.times[r]! ||
          (order.removedTimes[d] === order.times[r] && compareListingOrder(order.removed[d]!.id, ids[order.positions[r]!]!) < 0)));
    if (takeRemoval) {
      const removal = order.removed[d++]!;
      changes.push({ id: removal.id, change: 'removed', modified: removal.modified });
      last = { time: order.removedTimes[d - 1]!, id: removal.id };
    } else {
      const position = order.positions[r++]!;
      const record = recordAt(snapshot.table, position);
      changes.push({ id: record.id, change: 'updated', modified: modifiedAt(snapshot.table, position) ?? null, record });
      last = { time: order.times[r - 1]!, id: record.id };
    }
  }
  return {
    schemaVersion: PAGE_SCHEMA_VERSION,
    lastVerified: snapshot.lastVerified,
    changes,
    pagination: {
      limit,
      returned: changes.length,
      hasMore: r < recordCount || d < order.removed.length,
      next: tokens.encodeChangePoint(last),
    },
  };
}

/** `since` as a token this service issued, or an RFC 3339 date-time or a date (changes at or after it). */
function parseSince(since: string, tokens: CursorCodec): ChangePoint {
  const time = parseDateOrTime(since);
  if (time !== undefined) return { time, id: undefined };
  const point = tokens.decodeChangePoint(since);
  if (point) return point;
  throw new ServiceError(
    'invalid_cursor',
    '`since` must be the `pagination.next` token of an earlier answer, unaltered, or an RFC 3339 date-time such as 2025-01-20T00:00:00Z.',
  );
}

/** Milliseconds since 1970 of a date or date-time whose every field is in range (Date.parse rolls 30 February over). */
function parseDateOrTime(text: string): number | undefined {
  const match = DATE_OR_TIME.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0, offsetHours = 0, offsetMinutes = 0] = match
    .slice(1)
    .map((field) => (field === undefined ? undefined : Number(field)));
  const valid = isCalendarMoment(year!, month!, day!, hour, minute, second) && offsetHours < 24 && offsetMinutes < 60;
  return valid ? Date.parse(match[4] === undefined ? `${text}T00:00:00Z` : text) : undefined;
}
