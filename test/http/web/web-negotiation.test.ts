// Issue 7: `/` and `/docs` are documents for programs and pages for people. Browsers rank text/html
// first and get the page; scripts (no Accept, */*, JSON, Markdown) get the document they always got.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { negotiate } from '../../../src/http/shared/negotiation.js';
import { buildTestApp } from '../../support/app.js';

/** What Chromium sends when it navigates to a page. */
const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';

describe('negotiate', () => {
  const offers = ['application/json', 'text/html'] as const;

  it.each([
    [undefined, 'application/json'],
    ['', 'application/json'],
    ['*/*', 'application/json'],
    ['application/json', 'application/json'],
    ['application/json, text/html', 'application/json'],
    ['text/html;q=0.5, application/json', 'application/json'],
    ['application/*', 'application/json'],
    ['image/png', 'application/json'],
    ['text/html', 'text/html'],
    ['text/*', 'text/html'],
    [BROWSER_ACCEPT, 'text/html'],
    ['application/json;q=0.4, text/html;q=0.6', 'text/html'],
    ['text/html;q=0, */*', 'application/json'],
    ['TEXT/HTML', 'text/html'],
    ['text/html;q=abc, application/json;q=0.1', 'application/json'],
  ])('Accept %j → %s', (accept, expected) => {
    expect(negotiate(accept, offers)).toBe(expected);
  });

  it('takes the q of the most specific matching range', () => {
    expect(negotiate('text/*;q=0.9, text/html;q=0.1, application/json;q=0.5', offers)).toBe('application/json');
  });
});

describe('/ and /docs by Accept', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  it.each([undefined, '*/*', 'application/json'])('/ with Accept %j is the JSON index with its Link header', async (accept) => {
    const response = await app.inject({ url: '/', headers: accept ? { accept } : {} });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers.link).toBe('<http://cve.test/.well-known/api-catalog>; rel="api-catalog"');
    expect(response.headers.vary).toBe('Accept');
    expect(response.json()).toMatchObject({ name: 'public-cve-records', links: { openapi: 'http://cve.test/openapi.json' } });
  });

  it.each(['text/html', BROWSER_ACCEPT])('/ with Accept %j is the page, with its own policy', async (accept) => {
    const response = await app.inject({ url: '/', headers: { accept } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers.vary).toBe('Accept');
    expect(response.headers.link).toBe('<http://cve.test/.well-known/api-catalog>; rel="api-catalog"');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.body).toMatch(/^<!doctype html>/);
  });

  it('gives each representation of / its own ETag, each answered with 304', async () => {
    const json = await app.inject({ url: '/' });
    const page = await app.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(json.headers.etag).not.toBe(page.headers.etag);
    const again = await app.inject({ url: '/', headers: { accept: 'text/html', 'if-none-match': String(page.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect((await app.inject({ url: '/', headers: { 'if-none-match': String(page.headers.etag) } })).statusCode).toBe(200);
  });

  it.each([undefined, '*/*', 'text/markdown'])('/docs with Accept %j is the Markdown guide, also at /docs/guide.md', async (accept) => {
    const response = await app.inject({ url: '/docs', headers: accept ? { accept } : {} });
    expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(response.headers.vary).toBe('Accept');
    const guide = await app.inject({ url: '/docs/guide.md', headers: { accept: BROWSER_ACCEPT } });
    expect(guide.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(guide.body).toBe(response.body);
    expect(guide.body).toMatch(/^# Public CVE Records API: guide/);
  });

  it('/docs for a browser is the API reference viewer, its files served here', async () => {
    const response = await app.inject({ url: '/docs', headers: { accept: BROWSER_ACCEPT } });
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
    const sources = [...response.body.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    for (const source of sources) {
      expect(source, 'every file of the viewer comes from this service').toMatch(/^\//);
      expect((await app.inject({ url: source })).statusCode, source).toBe(200);
    }
    expect(sources.some((source) => /^\/docs\/assets\/swagger-ui-bundle\.[0-9a-f]+\.js$/.test(source))).toBe(true);
  });
});
