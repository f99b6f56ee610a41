import { describe, expect, it } from 'vitest';
import { RecentlyUsed } from '../../src/core/recently-used.js';

/** A cache whose values record how often each was made. */
function counted(maxWeight: number, maxCount?: number) {
  const made: string[] = [];
  const cache = new RecentlyUsed<string, string>(maxWeight, maxCount);
  const use = (key: string, weight = 1) =>
    cache.use(key, () => {
      made.push(key);
      return { value: key.toUpperCase(), weight };
    });
  return { use, made };
}

describe('values kept while recently used', () => {
  it('makes a value once while it is kept, and drops the least recently used past the weight', () => {
    const { use, made } = counted(3);
    expect([use('a'), use('b'), use('c'), use('a')]).toEqual(['A', 'B', 'C', 'A']);
    use('d'); // over 3: b, the least recently used, goes (a was used again)
    use('a');
    use('b');
    expect(made).toEqual(['a', 'b', 'c', 'd', 'b']);
  });

  it('keeps at most maxCount values, whatever they weigh', () => {
    const { use, made } = counted(100, 2);
    use('a');
    use('b');
    use('c');
    use('a');
    expect(made).toEqual(['a', 'b', 'c', 'a']);
  });

  it('gives a value heavier than all that may be kept without keeping it or dropping the others', () => {
    const { use, made } = counted(3);
    use('a');
    expect(use('huge', 10)).toBe('HUGE');
    use('huge', 10);
    use('a');
    expect(made).toEqual(['a', 'huge', 'huge']);
  });
});
