// Spec Limits and Errors rule 3: 120 requests per 60 s per connecting address, RateLimit headers, 429 with Retry-After.
import { describe, expect, it } from 'vitest';
import { MemoryRateStore } from '../../../src/http/edge/rate-limit/gcra.js';
import { buildTestApp } from '../../support/app.js';
import { heldBytes } from '../../support/held-memory.js';

const policy = { limit: 120, windowSeconds: 60 };

function fakeClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('GCRA limiter with a fake clock', () => {
  it('allows exactly the limit at once, then refuses with the wait until one request is allowed', () => {
    const clock = fakeClock();
    const store = new MemoryRateStore(policy, 1000, clock.now);
    const decisions = Array.from({ length: 121 }, () => store.hit('a'));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(120);
    expect(decisions[0]).toMatchObject({ remaining: 119, resetSeconds: 1, nextSeconds: 1 });
    expect(decisions[119]).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 60 });
    expect(decisions[120]).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1, resetSeconds: 60 });
  });

  it('returns capacity steadily: one request per 500 ms, full after 60 s', () => {
    const clock = fakeClock();
    const store = new MemoryRateStore(policy, 1000, clock.now);
    for (let i = 0; i < 120; i++) store.hit('a');
    clock.advance(500);
    expect(store.hit('a').allowed).toBe(true);
    expect(store.hit('a').allowed).toBe(false);
    clock.advance(60_000);
    expect(store.hit('a')).toMatchObject({ allowed: true, remaining: 119 });
  });

  it('cannot be doubled by bursting across a window edge', () => {
    const clock = fakeClock();
    const store = new MemoryRateStore(policy, 1000, clock.now);
    clock.advance(59_000);
    let allowed = 0;
    for (let i = 0; i < 200; i++) allowed += store.hit('a').allowed ? 1 : 0;
    clock.advance(2_000); // a fixed window would have reset here
    for (let i = 0; i < 200; i++) allowed += store.hit('a').allowed ? 1 : 0;
    expect(allowed).toBe(124); // 120 plus the 4 that 2 s of steady refill earns
  });

  it('keeps each key its own budget', () => {
    const store = new MemoryRateStore(policy, 1000, fakeClock().now);
    for (let i = 0; i < 120; i++) store.hit('a');
    expect(store.hit('a').allowed).toBe(false);
    expect(store.hit('b')).toMatchObject({ allowed: true, remaining: 119 });
  });

  it('stays within its key bound under 100,000 distinct addresses', () => {
    const clock = fakeClock();
    const store = new MemoryRateStore(policy, 10_000, clock.now);
    for (let i = 0; i < 100_000; i++) store.hit(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`);
    expect(store.size).toBeLessThanOrEqual(10_000);
    const before = heldBytes();
    for (let i = 0; i < 100_000; i++) store.hit(`172.16.${(i >> 8) & 255}.${i & 255}-${i}`);
    expect(store.size).toBeLessThanOrEqual(10_000);
    expect(heldBytes() - before).toBeLessThan(50 * 1024 * 1024);
  });

  it('under a flood of distinct addresses forgets the light ones first: an address that used its budget stays refused', () => {
    const clock = fakeClock();
    const store = new MemoryRateStore(policy, 1000, clock.now);
    for (let i = 0; i < 120; i++) store.hit('heavy');
    for (let i = 0; i < 5000; i++) store.hit(`10.0.${i >> 8}.${i & 255}`);
    expect(store.size).toBeLessThanOrEqual(1000);
    expect(store.hit('heavy').allowed).toBe(false);
  });

  it('forgets the addresses whose capacity is fully back before any other', () => {
    const clock = fakeClock();
    const store = new MemoryRateStore(policy, 10, clock.now);
    for (let i = 0; i < 10; i++) store.hit(`old-${i}`);
    clock.advance(60_000);
    store.hit('recent');
    store.hit('newest');
    expect(store.size).toBe(2);
    expect(store.hit('recent')).toMatchObject({ remaining: 118 });
  });
});

describe('rate limit over HTTP', () => {
  it('answers the 121st request from one address with 429, every header, readable cross-origin; another address is unaffected', async () => {
    // A clock that stands still: on a busy machine 120 requests can take longer than the 500 ms in which
    // one request's worth of capacity comes back.
    const app = await buildTestApp({
      config: { rateLimit: { max: 120, windowSeconds: 60 } },
      rateStore: new MemoryRateStore({ limit: 120, windowSeconds: 60 }, 1000, fakeClock().now),
    });
    const from = (remoteAddress: string, url = '/api/v1/health') =>
      app.inject({ method: 'GET', url, remoteAddress, headers: { origin: 'https://elsewhere.example' } });
    for (let i = 0; i < 120; i++) {
      const response = await from('127.0.0.1', i % 2 ? '/nope' : '/api/v1/health');
      expect(response.statusCode).not.toBe(429);
    }
    const limited = await from('127.0.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.headers['ratelimit-limit']).toBe('120');
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(limited.headers['ratelimit-reset']).toBe('60');
    expect(limited.headers['ratelimit-policy']).toBe('"default";q=120;w=60');
    // The draft's `t` is when more quota returns, so it never points before Retry-After (its section 6).
    expect(limited.headers.ratelimit).toBe('"default";r=0;t=1');
    expect(limited.headers['access-control-allow-origin']).toBe('*');
    expect(String(limited.headers['access-control-expose-headers'])).toContain('Retry-After');
    const other = await from('127.0.0.2');
    expect(other.statusCode).toBe(200);
    expect(other.headers['ratelimit-remaining']).toBe('119');
    expect(other.headers.ratelimit).toBe('"default";r=119;t=1');
    await app.close();
  });

  it('a spoofed X-Forwarded-For changes nothing', async () => {
    const app = await buildTestApp({ config: { rateLimit: { max: 2, windowSeconds: 60 } } });
    const codes = [];
    for (let i = 0; i < 3; i++) {
      codes.push(
        (await app.inject({ url: '/api/v1/health', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': `203.0.113.${i}` } }))
          .statusCode,
      );
    }
    expect(codes).toEqual([200, 200, 429]);
    await app.close();
  });
});
