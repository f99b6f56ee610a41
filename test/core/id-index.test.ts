// The id index finds each id's position by bisection of the ids it was first made of until their map is
// made (core/id-index.ts), and the same positions after: before and after that map, and after changes that
// add ids, remove some and bring back one that left.
import { describe, expect, it } from 'vitest';
import { compareListingOrder } from '../../src/core/cve-id.js';
import { idIndex, patchedIdIndex, positionIn } from '../../src/core/id-index.js';

const ids = ['1999', '2017', '2024', '2025']
  .flatMap((year) => [1, 2, 10, 999, 1000, 10_000, 123_456, 1_000_001].map((n) => `CVE-${year}-${String(n).padStart(4, '0')}`))
  .sort(compareListingOrder);
const absent = ['CVE-2024-0003', 'CVE-2026-0001', 'CVE-1998-99999', 'CVE-2025-1000002', 'not an id', ''];

describe('the id index', () => {
  it('places every id and no other, before its map is made and after', async () => {
    const index = idIndex(ids);
    const answers = () => [...ids, ...absent].map((id) => positionIn(index, id));
    const expected = [...ids.map((_, position) => position), ...absent.map(() => undefined)];
    expect(answers()).toEqual(expected);
    await index.numbers.prepare();
    expect(answers()).toEqual(expected);
  });

  it('numbers the ids a change brings after the first ones, and an id back after it left as before', async () => {
    const first = idIndex(ids);
    // A change: the first id leaves, two ids arrive.
    const arrived = ['CVE-2026-0001', 'CVE-2024-0003'];
    const second = [...ids.slice(1), ...arrived].sort(compareListingOrder);
    const from = Int32Array.from(second, (id) => ids.indexOf(id));
    const patched = patchedIdIndex(first, second, from);
    expect(second.map((id) => positionIn(patched, id))).toEqual(second.map((_, position) => position));
    expect(positionIn(patched, ids[0]!)).toBeUndefined();
    expect(arrived.map((id) => patched.numbers.get(id))).toEqual([ids.length, ids.length + 1]);
    // The first id back: its number is the one it had.
    await first.numbers.prepare();
    const third = [ids[0]!, ...second].sort(compareListingOrder);
    const again = patchedIdIndex(
      patched,
      third,
      Int32Array.from(third, (id) => second.indexOf(id)),
    );
    expect(again.numbers.get(ids[0]!)).toBe(0);
    expect(third.map((id) => positionIn(again, id))).toEqual(third.map((_, position) => position));
    expect(again.numbers.size).toBe(ids.length + 2);
  });
});
