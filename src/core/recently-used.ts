// Values kept while they are among the most recently used, within a total weight (and a count): a Map keeps
// insertion order, so a value used again moves to its end and the oldest are dropped first. Several indexes
// keep what they made this way (parsed records, version answers, named record lists), each with its own
// idea of a value's weight.

export class RecentlyUsed<K, V> {
  readonly #entries = new Map<K, { readonly value: V; readonly weight: number }>();
  #weight = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly maxCount = Number.POSITIVE_INFINITY,
  ) {}

  /**
   * The value kept for the key (now the most recently used), or the one `make` gives, kept unless it alone
   * weighs more than all that may be kept; older values are dropped to make room.
   */
  use(key: K, make: () => { readonly value: V; readonly weight: number }): V {
    const kept = this.#entries.get(key);
    if (kept !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, kept);
      return kept.value;
    }
    const made = make();
    if (made.weight > this.maxWeight) return made.value;
    this.#entries.set(key, made);
    this.#weight += made.weight;
    for (const [oldest, entry] of this.#entries) {
      if (this.#weight <= this.maxWeight && this.#entries.size <= this.maxCount) break;
      this.#entries.delete(oldest);
      this.#weight -= entry.weight;
    }
    return made.value;
  }
}
