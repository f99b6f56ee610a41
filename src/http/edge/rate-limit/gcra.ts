// GCRA (generic cell rate algorithm): `limit` requests per `window`, spread so that no burst across a
// window edge can double the limit, as a fixed window would allow. Per key it keeps one number, the
// theoretical arrival time (TAT): when the key's capacity is fully back.

export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the full capacity is back. */
  readonly resetSeconds: number;
  /** Seconds to wait before a retry can succeed; 0 when allowed. */
  readonly retryAfterSeconds: number;
  /**
   * Seconds until at least one more request is allowed than `remaining` says (the `t` of the draft's
   * `RateLimit` field, "until additional quota is made available"): capacity returns one request at a
   * time, so this is at most one interval, and on a refusal it is `retryAfterSeconds`.
   */
  readonly nextSeconds: number;
}

export interface RatePolicy {
  readonly limit: number;
  readonly windowSeconds: number;
}

/**
 * Given the stored TAT (ms) of a key, the TAT to store after one request at `now`: one interval later if
 * the request is allowed, unchanged (but never in the past) if not. Allowed exactly when it moved.
 */
export function nextTat(policy: RatePolicy, storedTat: number | undefined, now: number): number {
  const windowMs = policy.windowSeconds * 1000;
  const tat = Math.max(storedTat ?? now, now);
  const next = tat + windowMs / policy.limit;
  return next - windowMs <= now ? next : tat;
}

/**
 * The headers' view of one decision, from the TAT stored after it. Shared by every store, so a store
 * that decides elsewhere (Redis) reports exactly what the in-process one would.
 */
export function decide(policy: RatePolicy, allowed: boolean, tat: number, now: number): RateDecision {
  const windowMs = policy.windowSeconds * 1000;
  const interval = windowMs / policy.limit;
  const resetSeconds = Math.ceil((tat - now) / 1000);
  if (!allowed) {
    const allowAt = tat + interval - windowMs;
    const retryAfterSeconds = Math.max(1, Math.ceil((allowAt - now) / 1000));
    return { allowed, limit: policy.limit, remaining: 0, resetSeconds, retryAfterSeconds, nextSeconds: retryAfterSeconds };
  }
  const remaining = Math.floor((windowMs - (tat - now)) / interval + 1e-9);
  // The next request's worth returns once the capacity in use falls below what `remaining + 1` allows.
  const nextMs = remaining >= policy.limit ? 0 : tat - now - (windowMs - (remaining + 1) * interval);
  return {
    allowed,
    limit: policy.limit,
    remaining,
    resetSeconds,
    retryAfterSeconds: 0,
    nextSeconds: Math.max(0, Math.ceil(nextMs / 1000 - 1e-9)),
  };
}

/** Where decisions are made: in this process, or shared through Redis. */
export interface RateStore {
  hit(key: string): RateDecision | Promise<RateDecision>;
  close?(): Promise<void>;
}

/**
 * In-process store with bounded memory: past `maxKeys` it first drops keys whose capacity is fully back
 * (forgetting them changes nothing), then those whose capacity is most nearly back (the smallest TAT: what
 * forgetting them gives away is least). A flood of distinct addresses can make those forget their budget,
 * never grow the process without bound, and never makes a heavy user's address forget its debt.
 */
export class MemoryRateStore implements RateStore {
  readonly #tats = new Map<string, number>();

  constructor(
    readonly policy: RatePolicy,
    readonly maxKeys = 100_000,
    readonly clock: () => number = Date.now,
  ) {}

  get size(): number {
    return this.#tats.size;
  }

  hit(key: string): RateDecision {
    const now = this.clock();
    const stored = this.#tats.get(key);
    const tat = nextTat(this.policy, stored, now);
    // Updated in place. Deleting and re-inserting the key at every hit (to keep the map in order of last
    // touch) made V8 rebuild the map's table in old space about every other hit: some 36 bytes of old-space
    // garbage per request, so that a busy server ran full collections of its whole heap (the catalog) every
    // few seconds, the get-one p99 jump at 50 connections of docs/PERFORMANCE.md (issue 29).
    this.#tats.set(key, tat);
    if (stored === undefined && this.#tats.size > this.maxKeys) this.#evict(now);
    return decide(this.policy, tat !== Math.max(stored ?? now, now), tat, now);
  }

  /** Down to 90% of `maxKeys`: the keys whose capacity is back, then the smallest TATs. */
  #evict(now: number): void {
    for (const [key, tat] of this.#tats) {
      if (tat <= now) this.#tats.delete(key);
    }
    const keep = Math.floor(this.maxKeys * 0.9);
    const excess = this.#tats.size - keep;
    if (excess <= 0) return;
    const cutoff = Float64Array.from(this.#tats.values()).sort()[excess - 1]!;
    for (const [key, tat] of this.#tats) {
      if (this.#tats.size <= keep) break;
      if (tat <= cutoff) this.#tats.delete(key);
    }
  }
}
