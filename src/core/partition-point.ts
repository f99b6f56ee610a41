// The one bisection the core's sorted lists share: where a sorted range stops being "before" something.

/**
 * The first index of [low, high) at which `before` is false, for a `before` that holds on a prefix of the
 * range and not after it; `high` when it holds throughout. About log2(high - low) calls of `before`.
 */
export function partitionPoint(low: number, high: number, before: (index: number) => boolean): number {
  let from = low;
  let to = high;
  while (from < to) {
    const middle = (from + to) >>> 1;
    if (before(middle)) from = middle + 1;
    else to = middle;
  }
  return from;
}
