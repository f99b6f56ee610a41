// A browser over the rate limit gets a page saying how long to wait; programs keep the JSON error.
import { describe, expect, it } from 'vitest';
import { MemoryRateStore } from '../../../src/http/edge/rate-limit/gcra.js';
import { buildTestApp } from '../../support/app.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('the 429 page', () => {
  it('tells a browser over the limit how long to wait, with a correct plural; a script still gets JSON', async () => {
    const app = await buildTestApp({ config: { rateLimit: { max: 1, windowSeconds: 2 } } });
    const get = (accept?: string) => app.inject({ url: '/?query=openssl', headers: accept ? { accept } : {} });
    expect((await get(BROWSER)).statusCode).toBe(200);
    const page = await get(BROWSER);
    expect(page.statusCode).toBe(429);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['retry-after']).toBe('2');
    expect(page.body).toContain('<h1>Too many requests</h1>');
    expect(page.body).toContain('Wait 2 seconds');
    const json = await get();
    expect(json.statusCode).toBe(429);
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json.json().error.message).toBe('Too many requests from this address; retry after 2 seconds.');
    await app.close();
  });

  it('says "1 second" for a one-second wait', async () => {
    // A stopped clock, so that no capacity returns while the page renders.
    const policy = { limit: 2, windowSeconds: 1 };
    const app = await buildTestApp({
      config: { rateLimit: { max: 2, windowSeconds: 1 } },
      rateStore: new MemoryRateStore(policy, 10, () => 0),
    });
    const get = () => app.inject({ url: '/', headers: { accept: BROWSER } });
    await get();
    await get();
    const page = await get();
    expect(page.statusCode).toBe(429);
    expect(page.body).toContain('Wait 1 second,');
    await app.close();
  });
});
