import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { MAX_CURSOR_LENGTH, ServiceError } from '../contract/index.js';
import { isCveId } from './cve-id.js';
import type { ListFilters } from './snapshot.js';

/**
 * Keyset cursors: a cursor names the last record of a page, so the next page is found by binary
 * search whatever its depth, and it stays meaningful across catalog versions. An HMAC over the key
 * and the filters makes it tamper-evident and binds it to the filters it was issued for.
 */
export interface CursorCodec {
  encode(lastId: string, filters: ListFilters): string;
  /** Returns the id after which the page starts; throws ServiceError `invalid_cursor`. */
  decode(cursor: string, filters: ListFilters): string;
}

const FORMAT = '1';
const MAC_LENGTH = 16;

export function createCursorCodec(secret: string | Uint8Array): CursorCodec {
  // A KeyObject is imported once; a raw secret would be re-imported by every createHmac call.
  const key = createSecretKey(typeof secret === 'string' ? Buffer.from(secret) : secret);
  const encode = (lastId: string, filters: ListFilters): string => {
    const signature = createHmac('sha256', key)
      .update(JSON.stringify([FORMAT, lastId, filters.project ?? null, filters.status ?? null]))
      .digest()
      .subarray(0, MAC_LENGTH);
    return `${Buffer.from(`${FORMAT}|${lastId}`).toString('base64url')}.${signature.toString('base64url')}`;
  };

  return {
    encode,
    decode(cursor, filters) {
      const body = cursor.length <= MAX_CURSOR_LENGTH ? cursor.split('.')[0] : undefined;
      const [format, key] = body ? Buffer.from(body, 'base64url').toString('utf8').split('|') : [];
      if (format !== FORMAT || key === undefined || !isCveId(key)) throw invalidCursor('The cursor is malformed.');
      // Compare with the canonical encoding, not the decoded bytes: base64 ignores some trailing bits,
      // and an edited cursor must never be accepted.
      const expected = Buffer.from(encode(key, filters));
      const given = Buffer.from(cursor);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw invalidCursor(
          'The cursor was altered or was issued for other filters; pass it with the same project and status as the request that returned it.',
        );
      }
      return key;
    },
  };
}

function invalidCursor(message: string): ServiceError {
  return new ServiceError('invalid_cursor', message);
}
