import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { LIST_FILTERS, type ListFilterName, MAX_CURSOR_LENGTH, ServiceError } from '../contract/index.js';
import type { ChangePoint } from './change-order.js';
import { isCveId } from './cve-id.js';
import { NO_FILTERS } from './filter-index.js';
import type { ListFilters } from './snapshot.js';

/**
 * Keyset cursors: a cursor names the last record of a page, so the next page is found by binary
 * search whatever its depth, and it stays meaningful across catalog versions. An HMAC over the key
 * and the filters makes it tamper-evident and binds it to the filters it was issued for. Change-feed
 * tokens are sealed the same way and name a place in change order (a time and the last id seen there).
 */
export interface CursorCodec {
  encode(lastId: string, filters: ListFilters): string;
  /** Returns the id after which the page starts; throws ServiceError `invalid_cursor`. */
  decode(cursor: string, filters: ListFilters): string;
  encodeChangePoint(point: ChangePoint): string;
  /** The place a change-feed token names, or undefined when it is not one this service issued unaltered. */
  decodeChangePoint(token: string): ChangePoint | undefined;
  /** A cursor after a name in a list of names (projects), bound to the list's query. */
  encodeName(key: string, query: string | null): string;
  /** The name key a cursor names; throws ServiceError `invalid_cursor`. */
  decodeName(cursor: string, query: string | null): string;
}

const FORMAT = '1';
const CHANGE_FORMAT = 'c1';
const NAME_FORMAT = 'n1';
const MAC_LENGTH = 16;
/** Cursors remembered per codec (about 100 bytes each). */
const SEALED_CURSORS_KEPT = 10_000;
/** How an unknown change time is written in a token. */
const NO_TIME = 'none';

/** `base64url(fields joined by |).base64url(HMAC of the fields and what the token is bound to)`. */
function seal(key: KeyObject, fields: readonly string[], binding: readonly (string | null)[]): string {
  const signature = createHmac('sha256', key)
    .update(JSON.stringify([...fields, ...binding]))
    .digest()
    .subarray(0, MAC_LENGTH);
  return `${Buffer.from(fields.join('|')).toString('base64url')}.${signature.toString('base64url')}`;
}

/** The fields of a sealed token, or undefined when it is malformed (not checked against its MAC yet). */
function fieldsOf(token: string): string[] | undefined {
  const body = token.length <= MAX_CURSOR_LENGTH ? token.split('.')[0] : undefined;
  return body ? Buffer.from(body, 'base64url').toString('utf8').split('|') : undefined;
}

/** Compares with the canonical encoding, not the decoded bytes: base64 ignores some trailing bits, and an edited token must never be accepted. */
function sealedAlike(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createCursorCodec(secret: string | Uint8Array): CursorCodec {
  // A KeyObject is imported once; a raw secret would be re-imported by every createHmac call.
  const key = createSecretKey(typeof secret === 'string' ? Buffer.from(secret) : secret);
  // A cursor is a pure function of (last id, filters), and the same pages are asked for again and again
  // (page 1 above all): remembered, a list request signs nothing, and a cursor checks against the seal
  // made when it was issued. Bounded by starting afresh when full.
  const sealed = new Map<string, string>();
  const encode = (lastId: string, filters: ListFilters): string => {
    const binding = bindingOf(filters);
    const memo = binding === UNFILTERED_BINDING ? lastId + UNFILTERED_MEMO : `${lastId}${memoOf(binding)}`;
    let cursor = sealed.get(memo);
    if (cursor === undefined) {
      if (sealed.size >= SEALED_CURSORS_KEPT) sealed.clear();
      cursor = seal(key, [FORMAT, lastId], binding);
      sealed.set(memo, cursor);
    }
    return cursor;
  };
  const encodeChangePoint = (point: ChangePoint): string =>
    seal(key, [CHANGE_FORMAT, Number.isFinite(point.time) ? String(point.time) : NO_TIME, point.id ?? ''], []);

  const encodeName = (name: string, query: string | null): string => seal(key, [NAME_FORMAT, name], [query]);

  return {
    encode,
    encodeName,
    decodeName(cursor, query) {
      // A name may hold the separator: every field after the format is the name.
      const [format, ...name] = fieldsOf(cursor) ?? [];
      if (format !== NAME_FORMAT || name.length === 0) throw invalidCursor('The cursor is malformed.');
      if (!sealedAlike(cursor, encodeName(name.join('|'), query))) {
        throw invalidCursor(
          'The cursor was altered or was issued for another `q`; pass it with the same `q` as the request that returned it.',
        );
      }
      return name.join('|');
    },
    decode(cursor, filters) {
      const [format, lastId] = fieldsOf(cursor) ?? [];
      if (format !== FORMAT || lastId === undefined || !isCveId(lastId)) throw invalidCursor('The cursor is malformed.');
      if (!sealedAlike(cursor, encode(lastId, filters))) {
        throw invalidCursor(
          'The cursor was altered or was issued for other filters; pass it with the same filters as the request that returned it.',
        );
      }
      return lastId;
    },
    encodeChangePoint,
    decodeChangePoint(token) {
      const [format, time, id, ...rest] = fieldsOf(token) ?? [];
      if (format !== CHANGE_FORMAT || time === undefined || id === undefined || rest.length > 0) return undefined;
      if (id !== '' && !isCveId(id)) return undefined;
      const point: ChangePoint = { time: time === NO_TIME ? Number.NEGATIVE_INFINITY : Number(time), id: id === '' ? undefined : id };
      if (Number.isNaN(point.time) || !sealedAlike(token, encodeChangePoint(point))) return undefined;
      return point;
    },
  };
}

/** The list's filters in their cursor groups (contract/list-filters.ts), each in the table's order. */
const CURSOR_GROUPS: readonly (readonly ListFilterName[])[] = (() => {
  const names = Object.keys(LIST_FILTERS) as ListFilterName[];
  const last = Math.max(...names.map((name) => LIST_FILTERS[name].cursorGroup));
  return Array.from({ length: last + 1 }, (_, g) => names.filter((name) => LIST_FILTERS[name].cursorGroup === g));
})();

/** The binding of a request with no filter: the first group, every filter absent. */
const UNFILTERED_BINDING: readonly null[] = CURSOR_GROUPS[0]!.map(() => null);

/** A binding as the memo of sealed cursors writes it after the id; \u0001 marks an absent filter, which no filter value can be. */
function memoOf(binding: readonly (string | null)[]): string {
  return `\u0000${binding.map((value) => value ?? '\u0001').join('\u0000')}`;
}

const UNFILTERED_MEMO = memoOf(UNFILTERED_BINDING);

/**
 * What a list cursor is bound to: the filters of every group up to the highest one given (the first group
 * always), absent ones as null. A group added later is bound only when one of its filters is given, so
 * cursors issued before it existed stay valid.
 */
function bindingOf(filters: ListFilters): readonly (string | null)[] {
  if (filters === NO_FILTERS) return UNFILTERED_BINDING;
  let bound = 1;
  CURSOR_GROUPS.forEach((group, g) => {
    if (group.some((name) => filters[name] !== undefined)) bound = Math.max(bound, g + 1);
  });
  return CURSOR_GROUPS.slice(0, bound).flatMap((group) =>
    group.map((name) => (filters[name] === undefined ? null : String(filters[name]))),
  );
}

function invalidCursor(message: string): ServiceError {
  return new ServiceError('invalid_cursor', message);
}
