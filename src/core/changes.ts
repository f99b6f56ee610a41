import {
  type CatalogRemoval,
  CHANGES_LIMIT,
  type ChangesQuery,
  type RecordChange,
  type RecordChangesPage,
  ServiceError,
} from '../contract/index.js';
import { isCalendarMoment } from './calendar.js';
import { type ChangePoint, firstAfter, isAfter, lastChanged } from './change-order.js';
import type { CursorCodec } from './cursor.js';
import { compareListingOrder } from './cve-id.js';
import { PAGE_SCHEMA_VERSION } from './list.js';
import { modifiedAt, recordAt } from './record-table.js';
import type { Snapshot } from './snapshot.js';

/** The start of change order: before every change, including those whose time is unknown. */
const BEGINNING: ChangePoint = { time: Number.NEGATIVE_INFINITY, id: undefined };
/** A date-time with its offset, or a date (midnight UTC). */
const DATE_OR_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):(\d{2})))?$/i;

/** One change in change order: a record (its position in the snapshot's table) or a removal. */
export interface ChangeEntry {
  readonly point: ChangePoint;
  /** The record's position in the table; -1 for a removal. */
  readonly position: number;
  readonly removal?: CatalogRemoval;
}

/** Changes after a point and where the walk stopped: the next walk starts after `last`. */
export interface ChangeWalk {
  readonly entries: readonly ChangeEntry[];
  readonly last: ChangePoint;
  /** Whether changes (met by the check or not) follow `last` in this snapshot. */
  readonly hasMore: boolean;
}

/**
 * Walks change order after `since`: records (as they are now) merged with removals, oldest first, up to
 * `limit` entries that `accept` takes (removals are always taken: a removed record has no fields left to
 * check), looking at no more than `scanLimit` entries, so a rare filter costs a bounded step; `last` is
 * then the last entry looked at, taken or not.
 */
export function walkChanges(
  snapshot: Snapshot,
  since: ChangePoint,
  limit: number,
  accept?: (position: number) => boolean,
  scanLimit = Number.POSITIVE_INFINITY,
): ChangeWalk {
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
  const entries: ChangeEntry[] = [];
  let last = since;
  let scanned = 0;
  while (entries.length < limit && scanned < scanLimit && (r < recordCount || d < order.removed.length)) {
    scanned++;
    const takeRemoval =
      r === recordCount ||
      (d < order.removed.length &&
        (order.removedTimes[d]! < order.times[r]! ||
          (order.removedTimes[d] === order.times[r] && compareListingOrder(order.removed[d]!.id, ids[order.positions[r]!]!) < 0)));
    if (takeRemoval) {
      const removal = order.removed[d]!;
      last = { time: order.removedTimes[d++]!, id: removal.id };
      entries.push({ point: last, position: -1, removal });
    } else {
      const position = order.positions[r]!;
      last = { time: order.times[r++]!, id: ids[position]! };
      if (!accept || accept(position)) entries.push({ point: last, position });
    }
  }
  return { entries, last, hasMore: r < recordCount || d < order.removed.length };
}

/** The change an entry of a walk stands for, as the feed answers it. */
export function changeOf(snapshot: Snapshot, entry: ChangeEntry): RecordChange {
  if (entry.removal) return { id: entry.removal.id, change: 'removed', modified: entry.removal.modified };
  const record = recordAt(snapshot.table, entry.position);
  return { id: record.id, change: 'updated', modified: modifiedAt(snapshot.table, entry.position) ?? null, record };
}

/** The point after the snapshot's last change: where following it from now on starts. */
export function latestChange(snapshot: Snapshot): ChangePoint {
  const record = lastRecordChange(snapshot);
  const removals = snapshot.removed.length;
  if (removals === 0) return record;
  // The removals are kept in change order (changeOrder's `removed`).
  const last = snapshot.removed[removals - 1]!;
  const removal: ChangePoint = { time: Date.parse(last.modified), id: last.id };
  return record.id !== undefined && isAfter(record.time, record.id, removal) ? record : removal;
}

/**
 * The last record of the change order: read from the order when it is built, else found without building
 * it (a server's change follower asks at its start, before the first answer, where sorting every record by
 * time cost a start from a checkpoint at 340,000 records 0.2 s: docs/PERFORMANCE.md, "The sync step, stop 37").
 */
function lastRecordChange(snapshot: Snapshot): ChangePoint {
  if (snapshot.changes.built) {
    const order = snapshot.changes.get();
    const records = order.positions.length;
    return records === 0 ? BEGINNING : { time: order.times[records - 1]!, id: snapshot.table.ids[order.positions[records - 1]!]! };
  }
  const last = lastChanged(snapshot.table);
  return last === undefined ? BEGINNING : { time: last.time, id: snapshot.table.ids[last.position]! };
}

/**
 * The changes after a point, oldest first: records (as they are now) merged with removals, both in
 * change order. The token of the last change returned is where the next page, or the next poll, starts;
 * it names a time and an id, not a position, so it stays valid across catalog versions.
 */
export function listChanges(snapshot: Snapshot, query: ChangesQuery, tokens: CursorCodec): RecordChangesPage {
  const limit = query.limit ?? CHANGES_LIMIT.default;
  const since = query.since === undefined ? BEGINNING : parseSince(query.since, tokens);
  const walk = walkChanges(snapshot, since, limit);
  const changes = walk.entries.map((entry) => changeOf(snapshot, entry));
  return {
    schemaVersion: PAGE_SCHEMA_VERSION,
    lastVerified: snapshot.lastVerified,
    changes,
    pagination: { limit, returned: changes.length, hasMore: walk.hasMore, next: tokens.encodeChangePoint(walk.last) },
  };
}

/** `since` as a token this service issued, or an RFC 3339 date-time or a date (changes at or after it). */
export function parseSince(since: string, tokens: CursorCodec, name = '`since`'): ChangePoint {
  const time = parseDateOrTime(since);
  if (time !== undefined) return { time, id: undefined };
  const point = tokens.decodeChangePoint(since);
  if (point) return point;
  throw new ServiceError(
    'invalid_cursor',
    `${name} must be the \`pagination.next\` token of an earlier answer or the \`id\` of a change event, unaltered, or an RFC 3339 date-time such as 2025-01-20T00:00:00Z.`,
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
