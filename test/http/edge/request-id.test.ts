import { describe, expect, it } from 'vitest';
import { generateRequestId } from '../../../src/http/edge/request-id.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it('are version 4 UUIDs of RFC 9562, across many batches, never twice the same', () => {
    const ids = Array.from({ length: 5_000 }, generateRequestId);
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('draw every hex digit in the random positions (not a fixed or short-cycled pattern)', () => {
    const seen = new Map<number, Set<string>>();
    for (let n = 0; n < 2_000; n++) {
      const id = generateRequestId();
      for (let i = 0; i < id.length; i++) {
        if (id[i] === '-' || i === 14 || i === 19) continue; // the version digit, the variant digit
        if (!seen.has(i)) seen.set(i, new Set());
        seen.get(i)!.add(id[i]!);
      }
    }
    expect(seen.size).toBe(30);
    for (const digits of seen.values()) expect(digits.size).toBe(16);
  });
});
