// GCRA counters in Redis, so every process and replica spends one budget per address. The decision is
// one Lua script: atomic, and timed by Redis's own clock, so replicas with skewed clocks still agree.
// When Redis cannot answer, the service keeps answering: decisions fall back to an in-process store
// (logged once per outage) until Redis is ready again.
import { Redis } from 'ioredis';
import type { RateDecision, RatePolicy, RateStore } from './gcra.js';
import { decide, MemoryRateStore } from './gcra.js';

// TATs are whole microseconds: exact in a double, and printed with %.0f so Lua never rounds them.
const GCRA_SCRIPT = `
local interval = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local tat = tonumber(redis.call('GET', KEYS[1])) or now
if tat < now then tat = now end
local nextTat = tat + interval
if nextTat - window > now then
  return {0, string.format('%.0f', tat), string.format('%.0f', now)}
end
redis.call('SET', KEYS[1], string.format('%.0f', nextTat), 'PX', math.ceil((nextTat - now) / 1000))
return {1, string.format('%.0f', nextTat), string.format('%.0f', now)}
`;

type GcraReply = [number, string, string];

interface GcraRedis extends Redis {
  gcra(key: string, intervalMicros: number, windowMicros: number): Promise<GcraReply>;
}

export interface RedisStoreLogger {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

export class RedisRateStore implements RateStore {
  readonly #redis: GcraRedis;
  readonly #fallback: MemoryRateStore;
  readonly #prefix: string;
  readonly #intervalMicros: number;
  readonly #windowMicros: number;
  #degraded = false;

  constructor(
    url: string,
    readonly policy: RatePolicy,
    readonly log: RedisStoreLogger,
  ) {
    this.#fallback = new MemoryRateStore(policy);
    // The policy is part of the key, so replicas briefly running different limits never share a TAT.
    this.#prefix = `cve-records:ratelimit:${policy.limit}/${policy.windowSeconds}:`;
    this.#windowMicros = policy.windowSeconds * 1_000_000;
    this.#intervalMicros = this.#windowMicros / policy.limit;
    this.#redis = new Redis(url, {
      // Never queue a request behind a dead connection: fail at once and decide in-process.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 250,
      connectTimeout: 1000,
      retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
      lazyConnect: true,
    }) as GcraRedis;
    this.#redis.defineCommand('gcra', { numberOfKeys: 1, lua: GCRA_SCRIPT });
    this.#redis.on('error', (error: Error) => this.#degrade(error));
    this.#redis.on('ready', () => this.#recover());
  }

  /** Connects, waiting at most `waitMs`; an unreachable Redis at start is an outage, not a failure. */
  async connect(waitMs = 2000): Promise<void> {
    const ready = new Promise<void>((resolve) => {
      this.#redis.once('ready', resolve);
      setTimeout(resolve, waitMs).unref();
    });
    this.#redis.connect().catch((error: Error) => this.#degrade(error));
    await ready;
  }

  get usingRedis(): boolean {
    return this.#redis.status === 'ready' && !this.#degraded;
  }

  async hit(key: string): Promise<RateDecision> {
    if (this.#redis.status !== 'ready') return this.#fallbackHit(key, new Error(`Redis connection is ${this.#redis.status}`));
    try {
      const [allowed, tat, now] = await this.#redis.gcra(this.#prefix + key, this.#intervalMicros, this.#windowMicros);
      this.#recover();
      return decide(this.policy, allowed === 1, Number(tat) / 1000, Number(now) / 1000);
    } catch (error) {
      return this.#fallbackHit(key, error as Error);
    }
  }

  async close(): Promise<void> {
    this.#redis.disconnect();
  }

  #fallbackHit(key: string, error: Error): RateDecision {
    this.#degrade(error);
    return this.#fallback.hit(key);
  }

  #degrade(error: Error): void {
    if (this.#degraded) return;
    this.#degraded = true;
    this.log.warn({ err: { message: error.message } }, 'rate limit: Redis unavailable, limiting in-process until it is back');
  }

  #recover(): void {
    if (!this.#degraded || this.#redis.status !== 'ready') return;
    this.#degraded = false;
    this.log.info({}, 'rate limit: Redis is back, limits are shared again');
  }
}
