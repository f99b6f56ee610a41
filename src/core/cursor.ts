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
  // (page 1 above all): remembered, a list request signs nothing. Each cursor issued is remembered the
  // other way too, with what it was sealed for, so that the next request, which brings it back, reads its id
  // and binding by one look-up instead of decoding it and sealing it again to compare (some 5 µs of CPU a
  // request: docs/PERFORMANCE.md, "Deep version pages, stop 37"). Bounded by starting afresh when full.
  const sealed = new Map<string, string>();
  const issued = new Map<string, { readonly lastId: string; readonly memo: string }>();
  const encode = (lastId: string, filters: ListFilters): string => {
    const binding = bindingOf(filters);
    const memo = lastId + binding.memo;
    let cursor = sealed.get(memo);
    if (cursor === undefined) {
      if (sealed.size >= SEALED_CURSORS_KEPT) {
        sealed.clear();
        issued.clear();
      }
      cursor = seal(key, [FORMAT, lastId], binding.values);
      sealed.set(memo, cursor);
      issued.set(cursor, { lastId, memo: binding.memo });
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
      // A cursor found is one this codec sealed, byte for byte: only its binding is left to compare. One not
      // found (issued before a restart, or forgotten) is checked against its seal made again.
      const known = issued.get(cursor);
      if (known !== undefined && known.memo === bindingOf(filters).memo) return known.lastId;
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

/**
 * What a list cursor is bound to (`values`): the filters of every group up to the highest one given (the
 * first group always), absent ones as null. A group added later is bound only when one of its filters is
 * given, so cursors issued before it existed stay valid. `memo` writes them after the id in the codec's
 * maps, each after \u0000, \u0001 for an absent one, which no filter value can be.
 */
interface Binding {
  readonly values: readonly (string | null)[];
  readonly memo: string;
}

function binding(values: readonly (string | null)[]): Binding {
  let memo = '';
  for (const value of values) memo += `\u0000${value ?? '\u0001'}`;
  return { values, memo };
}

/** The binding of a request with no filter: the first group, every filter absent. */
const UNFILTERED: Binding = binding(CURSOR_GROUPS[0]!.map(() => null));

/** The filters last bound, and their binding: a page decodes its cursor and encodes the next one with the same filters. */
let lastBound: { filters: ListFilters; binding: Binding } = { filters: NO_FILTERS, binding: UNFILTERED };

function bindingOf(filters: ListFilters): Binding {
  if (filters === NO_FILTERS) return UNFILTERED;
  if (filters === lastBound.filters) return lastBound.binding;
  const values: (string | null)[] = [];
  let bound = CURSOR_GROUPS[0]!.length;
  for (const group of CURSOR_GROUPS) {
    let given = false;
    for (const name of group) {
      const value = filters[name];
      if (value !== undefined) given = true;
      values.push(value === undefined ? null : String(value));
    }
    if (given) bound = values.length;
  }
  values.length = bound;
  lastBound = { filters, binding: binding(values) };
  return lastBound.binding;
}

function invalidCursor(message: string): ServiceError {
  return new ServiceError('invalid_cursor', message);
}
