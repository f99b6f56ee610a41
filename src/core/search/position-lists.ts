// Sorted lists of record positions and their union: a vendor's projects, a term's spellings.

/** Record positions, ascending. */
export type Positions = Int32Array;

/**
 * Lists merged two at a time at most: past that, merging pairwise reads the first lists again for each
 * further one (a vendor names hundreds of projects), and one sort of them all costs less.
 */
const PAIRWISE_MERGES = 4;

/** The sorted union of sorted lists, by merging (each list is ascending already), or by one sort when they are many. */
export function union(lists: readonly Positions[]): Positions {
  const nonEmpty = lists.filter((list) => list.length > 0);
  if (nonEmpty.length === 0) return new Int32Array(0);
  if (nonEmpty.length === 1) return nonEmpty[0]!;
  if (nonEmpty.length > PAIRWISE_MERGES) return sortedDistinct(nonEmpty);
  let merged = nonEmpty[0]!;
  for (const next of nonEmpty.slice(1)) {
    const out = new Int32Array(merged.length + next.length);
    let i = 0;
    let j = 0;
    let n = 0;
    while (i < merged.length || j < next.length) {
      const a = i < merged.length ? merged[i]! : Number.MAX_SAFE_INTEGER;
      const b = j < next.length ? next[j]! : Number.MAX_SAFE_INTEGER;
      const value = Math.min(a, b);
      if (a === value) i++;
      if (b === value) j++;
      out[n++] = value;
    }
    merged = out.subarray(0, n);
  }
  return merged;
}

/** The distinct values of the lists, ascending. */
function sortedDistinct(lists: readonly Positions[]): Positions {
  const all = new Int32Array(lists.reduce((sum, list) => sum + list.length, 0));
  let n = 0;
  for (const list of lists) {
    all.set(list, n);
    n += list.length;
  }
  all.sort();
  let kept = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[kept++] = all[i]!;
  return all.subarray(0, kept);
}
