// Request ids: random (version 4) UUIDs, as `crypto.randomUUID()` makes them, but cut from a batch
// formatted once. Node formats each UUID by joining 20 pieces, about 680 bytes of short-lived strings a
// request (a seventh of what a served get-one allocates; docs/PERFORMANCE.md, "Hot path, stop 38"); here a
// request's id is one slice of a string made for 256 of them.
import { randomFillSync } from 'node:crypto';

/** UUIDs per batch: one random fill and one string per 256 requests (Node's own pool holds 128). */
const BATCH = 256;
const UUID_LENGTH = 36;
const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
/** Where each of a UUID's 16 bytes is written, in the 8-4-4-4-12 form; the dashes are between. */
const BYTE_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

const random = Buffer.alloc(16 * BATCH);
/** The batch's text; its dashes never move, so they are written once. */
const text = Buffer.alloc(UUID_LENGTH * BATCH, '-', 'latin1');
let batch = '';
let next = BATCH;

/** BATCH new UUIDs, back to back: version 4, variant of RFC 9562, lower-case hex. */
function formatBatch(): string {
  randomFillSync(random);
  for (let uuid = 0; uuid < BATCH; uuid++) {
    const from = 16 * uuid;
    random[from + 6] = (random[from + 6]! & 0x0f) | 0x40;
    random[from + 8] = (random[from + 8]! & 0x3f) | 0x80;
    const to = UUID_LENGTH * uuid;
    for (let i = 0; i < 16; i++) {
      const byte = random[from + i]!;
      const at = to + BYTE_AT[i]!;
      text[at] = HEX_DIGITS[byte >> 4]!;
      text[at + 1] = HEX_DIGITS[byte & 0x0f]!;
    }
  }
  return text.toString('latin1');
}

/**
 * Ids are always ours: a caller-chosen id could collide with another caller's in our logs. Unguessable,
 * from the same random source as `randomUUID`.
 */
export function generateRequestId(): string {
  if (next === BATCH) {
    batch = formatBatch();
    next = 0;
  }
  const start = UUID_LENGTH * next++;
  return batch.slice(start, start + UUID_LENGTH);
}
