// Issue 3, caching: strong ETags on cacheable GETs, 304 for a matching If-None-Match, Cache-Control
// public on records and documents, no-store on the rest.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, fixtureCatalog } from '../../support/app.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp({ config: { cacheMaxAgeSeconds: 120 } });
});
afterAll(() => app.close());

const cacheable = [
  '/api/v1/cve-records',
  '/api/v1/cve-records?project=openssl&limit=2',
  '/api/v1/cve-records/CVE-2024-1234',
  '/api/v1/capabilities',
  '/api/v1/sandbox',
  '/openapi.json',
  '/.well-known/api-catalog',
  '/api-policy.md',
  '/',
];

describe('conditional GETs', () => {
  it.each(cacheable)('%s carries a strong ETag and public max-age, and answers a matching If-None-Match with 304', async (url) => {
    const first = await app.inject({ url });
    expect(first.statusCode).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]{8}-[\w-]{22}"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=120');

    const again = await app.inject({ url, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('public, max-age=120');
    expect(again.headers['content-length']).toBeUndefined();
    expect(again.headers['ratelimit-remaining']).toBeDefined();
  });

  it('matches weakly, in a list, and on *', async () => {
    const { etag } = (await app.inject({ url: '/api/v1/cve-records/CVE-2024-1234' })).headers;
    for (const header of [`W/${etag}`, `"other", ${etag}`, '*']) {
      expect((await app.inject({ url: '/api/v1/cve-records/CVE-2024-1234', headers: { 'if-none-match': header } })).statusCode).toBe(304);
    }
    expect((await app.inject({ url: '/api/v1/cve-records/CVE-2024-1234', headers: { 'if-none-match': '"stale"' } })).statusCode).toBe(200);
  });

  it('gives different representations different ETags', async () => {
    const tags = new Set<string>();
    for (const url of [
      '/api/v1/cve-records/CVE-2024-1234',
      '/api/v1/cve-records/CVE-2022-4450',
      '/api/v1/cve-records?limit=1',
      '/api/v1/cve-records?limit=2',
    ]) {
      tags.add(String((await app.inject({ url })).headers.etag));
    }
    expect(tags.size).toBe(4);
  });

  it('changes every ETag when the dataset changes', async () => {
    const changed = await buildTestApp({ catalog: { ...fixtureCatalog, lastVerified: '2025-02-01' } });
    const before = (await app.inject({ url: '/api/v1/cve-records/CVE-2024-1234' })).headers.etag;
    const after = (await changed.inject({ url: '/api/v1/cve-records/CVE-2024-1234' })).headers.etag;
    expect(after).not.toBe(before);
    expect(
      (await changed.inject({ url: '/api/v1/cve-records/CVE-2024-1234', headers: { 'if-none-match': String(before) } })).statusCode,
    ).toBe(200);
    await changed.close();
  });

  it("tags a record's details by the dataset, the service version and the id: 304 on a match, new when the dataset changes", async () => {
    const url = '/api/v1/cve-records/CVE-2024-1234/details';
    const first = await app.inject({ url });
    expect(first.statusCode).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w.-]+-CVE-2024-1234"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=120');
    expect((await app.inject({ url, headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    const other = String((await app.inject({ url: '/api/v1/cve-records/CVE-2022-4450/details' })).headers.etag);
    const record = String((await app.inject({ url: '/api/v1/cve-records/CVE-2024-1234' })).headers.etag);
    expect(new Set([etag, other, record]).size).toBe(3);
    const changed = await buildTestApp({ catalog: { ...fixtureCatalog, lastVerified: '2025-02-01' } });
    const after = await changed.inject({ url, headers: { 'if-none-match': etag } });
    await changed.close();
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
  });

  it('answers HEAD with the same validators as GET', async () => {
    const get = await app.inject({ url: '/api/v1/cve-records' });
    const head = await app.inject({ method: 'HEAD', url: '/api/v1/cve-records' });
    expect(head.statusCode).toBe(200);
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(
      (await app.inject({ method: 'HEAD', url: '/api/v1/cve-records', headers: { 'if-none-match': String(get.headers.etag) } })).statusCode,
    ).toBe(304);
  });
});

describe('what is never cached', () => {
  it.each([
    ['GET', '/api/v1/health', undefined],
    ['GET', '/api/v1/cve-records/CVE-1999-0001', undefined],
    ['GET', '/api/v1/cve-records?limit=0', undefined],
    ['GET', '/no-such-path', undefined],
    ['GET', '/ask?query=curl', undefined],
    ['POST', '/api/v1/cve-records/batch', { ids: ['CVE-2024-1234'] }],
  ])('%s %s is no-store without an ETag', async (method, url, payload) => {
    const response = await app.inject({ method: method as 'GET' | 'POST', url, ...(payload ? { payload } : {}) });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.etag).toBeUndefined();
  });

  it('/ask varies by Accept, since it negotiates JSON or an event stream', async () => {
    expect((await app.inject({ url: '/ask?query=curl' })).headers.vary).toMatch(/Accept/);
  });
});

describe('compression', () => {
  const list = '/openapi.json'; // the fixture catalog's pages are all under 1 KiB

  it('compresses bodies over 1 KiB for clients that accept it, with its own ETag per coding', async () => {
    const identity = await app.inject({ url: list });
    expect(identity.headers['content-encoding']).toBeUndefined();
    for (const coding of ['gzip', 'br'] as const) {
      const encoded = await app.inject({ url: list, headers: { 'accept-encoding': coding } });
      expect(encoded.headers['content-encoding']).toBe(coding);
      expect(String(encoded.headers.vary)).toMatch(/accept-encoding/i);
      const body = coding === 'gzip' ? gunzipSync(encoded.rawPayload) : brotliDecompressSync(encoded.rawPayload);
      expect(body.toString()).toBe(identity.body);
      expect(encoded.headers.etag).toBe(`${String(identity.headers.etag).slice(0, -1)}-${coding}"`);
      // The client holding the compressed representation revalidates it like any other.
      const again = await app.inject({ url: list, headers: { 'accept-encoding': coding, 'if-none-match': String(encoded.headers.etag) } });
      expect(again.statusCode).toBe(304);
    }
  });

  it('leaves small bodies alone', async () => {
    const small = await app.inject({ url: '/api/v1/cve-records/CVE-2024-1234', headers: { 'accept-encoding': 'gzip, br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().id).toBe('CVE-2024-1234');
  });
});

describe('static assets', () => {
  it('are compressed once and served compressed with their own ETag, 304 on revalidation', async () => {
    const url = '/web/page.js';
    const identity = await app.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(identity.headers['content-encoding']).toBeUndefined();
    const first = await app.inject({ url, headers: { 'accept-encoding': 'gzip;q=1, br;q=0' } });
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(first.rawPayload).toString()).toBe(identity.body);
    const brotli = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(identity.body);
    expect(String(brotli.headers.etag)).toMatch(/-br"$/);
    expect(String(brotli.headers.vary)).toMatch(/Accept-Encoding/i);
    const again = await app.inject({ url, headers: { 'accept-encoding': 'br', 'if-none-match': String(brotli.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });
});
