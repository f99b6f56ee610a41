// The writers' texts are encoded where they land in a chunk (stop 36): whatever the texts (several bytes
// per character, longer than a chunk, empty), the bytes are the texts' own, in order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inChunks } from '../../src/catalog/text-chunks.js';
import { MB, VARIED_TEXTS as TEXTS } from '../support/varied-texts.js';

describe('texts in chunks', () => {
  it('gives the texts own UTF-8 bytes, in order, in chunks of about a megabyte', () => {
    const chunks = [...inChunks(TEXTS)];
    expect(Buffer.concat(chunks).equals(Buffer.from(TEXTS.join(''), 'utf8'))).toBe(true);
    // A text longer than a chunk has a chunk of its own size; the others stay within a megabyte.
    for (const chunk of chunks) expect(chunk.length <= MB || TEXTS.some((text) => Buffer.byteLength(text) === chunk.length)).toBe(true);
    expect(chunks.length).toBeGreaterThan(2);
  });

  it('matches the joined texts for any texts', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 2000 }), { maxLength: 50 }), (texts) => {
        expect(Buffer.concat([...inChunks(texts)]).equals(Buffer.from(texts.join(''), 'utf8'))).toBe(true);
      }),
    );
  });
});
