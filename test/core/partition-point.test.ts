import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { partitionPoint } from '../../src/core/partition-point.js';

describe('partitionPoint', () => {
  it('is the first index of the range past the prefix where the predicate holds, as a linear scan finds it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -50, max: 50 })),
        fc.integer({ min: -60, max: 60 }),
        fc.nat(),
        fc.nat(),
        (values, bound, a, b) => {
          const sorted = [...values].sort((x, y) => x - y);
          const low = Math.min(a, b) % (sorted.length + 1);
          const high = Math.max(low, Math.max(a, b) % (sorted.length + 1));
          let expected = low;
          while (expected < high && sorted[expected]! < bound) expected++;
          expect(partitionPoint(low, high, (i) => sorted[i]! < bound)).toBe(expected);
        },
      ),
    );
  });

  it('asks about a logarithmic number of indexes, each inside the range', () => {
    const asked: number[] = [];
    const point = partitionPoint(10, 1_010, (i) => {
      asked.push(i);
      return i < 700;
    });
    expect(point).toBe(700);
    expect(asked.length).toBeLessThanOrEqual(11);
    for (const i of asked) expect(i >= 10 && i < 1_010).toBe(true);
  });
});
