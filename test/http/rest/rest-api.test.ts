// The REST operations of the spec, rule by rule, through Fastify's inject.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, fixtureOrder, loadDefaultCatalog } from '../../support/app.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
const batch = (payload: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/cve-records/batch',
    headers,
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

function expectError(response: Awaited<ReturnType<typeof get>>, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = response.json();
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect(body.requestId).toBe(response.headers['x-request-id']);
  return body;
}

describe('health, capabilities, sandbox', () => {
  it('health reports ok, the service version, read-only and no assessment execution', async () => {
    const response = await get('/api/v1/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', version: '1.0.0', readOnly: true, assessmentExecution: false });
  });

  it('capabilities are public, unauthenticated, read-only, list the callable operations and state the boundary', async () => {
    const body = (await get('/api/v1/capabilities')).json();
    expect(body).toMatchObject({ access: 'public', authentication: 'none', readOnly: true });
    expect(body.capabilities).toContain('listPublicCveRecords');
    // The seven operations of the spec and the compatible additions within v1.
    expect(body.capabilities).toHaveLength(16);
    expect(body.capabilities).toEqual(
      expect.arrayContaining([
        'listPublicCveRecordChanges',
        'streamPublicCveRecordChanges',
        'listNlwebSites',
        'exportPublicCveRecords',
        'getPublishedRecordsFeed',
        'getPublicCveRecordDetails',
        'batchGetPublicCveRecordDetails',
        'batchCheckVersions',
      ]),
    );
    expect(body.boundaries).toMatchObject({
      startsAssessments: false,
      interactsWithTargets: false,
      readsPrivateWorkspaces: false,
      spendsCredits: false,
    });
    expect(body.links.openapi).toBe('http://cve.test/openapi.json');
    expect(body.dataset.records).toBe(fixtureOrder.length);
  });

  it('sandbox states its fixed fields, and every example request works against the service', async () => {
    const body = (await get('/api/v1/sandbox')).json();
    expect(body).toMatchObject({
      schemaVersion: '1.0',
      mode: 'sandbox',
      persistent: false,
      productionData: false,
      authentication: 'none',
      readOnly: true,
    });
    expect(body.exampleRequests.length).toBeGreaterThan(3);
    for (const example of body.exampleRequests as string[]) {
      const [method, url, ...payload] = example.split(' ');
      const response = await app.inject({
        method: method as 'GET' | 'POST',
        url: url!.replace('http://cve.test', ''),
        ...(payload.length ? { payload: payload.join(' '), headers: { 'content-type': 'application/json' } } : {}),
      });
      expect(response.statusCode, example).toBe(200);
    }
  });
});

describe('list (spec rules 1 and 2)', () => {
  it('returns a CveRecordPage with lastVerified from the catalog', async () => {
    const body = (await get('/api/v1/cve-records?limit=3')).json();
    expect(body.schemaVersion).toBe('1.0');
    expect(body.lastVerified).toBe('2025-01-24');
    expect(body.records.map((r: { id: string }) => r.id)).toEqual(fixtureOrder.slice(0, 3));
    expect(body.pagination).toMatchObject({ limit: 3, returned: 3, total: 8 });
  });

  it('follows nextCursor until it is null', async () => {
    const ids: string[] = [];
    let url = '/api/v1/cve-records?limit=3';
    for (;;) {
      const body = (await get(url)).json();
      ids.push(...body.records.map((r: { id: string }) => r.id));
      if (body.pagination.nextCursor === null) break;
      url = `/api/v1/cve-records?limit=3&cursor=${encodeURIComponent(body.pagination.nextCursor)}`;
    }
    expect(ids).toEqual(fixtureOrder);
  });

  it('filters exactly by project and status', async () => {
    const body = (await get('/api/v1/cve-records?project=openssl&status=public')).json();
    expect(body.records.map((r: { id: string }) => r.id)).toEqual(['CVE-2025-9999', 'CVE-2024-1234', 'CVE-2022-4450']);
    expect((await get('/api/v1/cve-records?project=OPENSSL')).json().pagination.total).toBe(0);
  });

  it.each([
    ['limit=0', 'invalid_parameter'],
    ['limit=101', 'invalid_parameter'],
    ['limit=abc', 'invalid_parameter'],
    ['limit=2.5', 'invalid_parameter'],
    ['status=published', 'invalid_parameter'],
    ['cursor=', 'invalid_parameter'],
    ['project=', 'invalid_parameter'],
    ['projet=openssl', 'unknown_parameter'],
    ['limit=5&limit=6', 'repeated_parameter'],
    ['cursor=garbage', 'invalid_cursor'],
  ])('rejects ?%s with 400 %s', async (query, code) => {
    expectError(await get(`/api/v1/cve-records?${query}`), 400, code);
  });

  it('rejects a cursor used with other filters, never returning records outside the filter', async () => {
    const cursor = (await get('/api/v1/cve-records?limit=1&project=openssl')).json().pagination.nextCursor;
    expectError(await get(`/api/v1/cve-records?limit=1&project=curl&cursor=${encodeURIComponent(cursor)}`), 400, 'invalid_cursor');
  });
});

describe('get one', () => {
  it('returns the record', async () => {
    const response = await get('/api/v1/cve-records/CVE-2021-44228');
    expect(response.json()).toEqual({
      id: 'CVE-2021-44228',
      project: 'log4j',
      status: 'public',
      url: 'https://www.cve.org/CVERecord?id=CVE-2021-44228',
    });
  });

  it('answers an unknown id and a malformed id alike, with 404 record_not_found', async () => {
    expectError(await get('/api/v1/cve-records/CVE-1999-0001'), 404, 'record_not_found');
    expectError(await get('/api/v1/cve-records/not-a-cve'), 404, 'record_not_found');
    expectError(await get('/api/v1/cve-records/cve-2021-44228'), 404, 'record_not_found');
  });

  it('never shows summary or published', async () => {
    expect(Object.keys((await get('/api/v1/cve-records/CVE-2024-50000')).json())).toEqual(['id', 'project', 'status', 'url']);
  });
});

describe('batch (spec rule 3)', () => {
  it('returns records and missing in request order', async () => {
    const response = await batch({ recordIds: ['CVE-2000-0001', 'CVE-2024-50000', 'CVE-2021-44228', 'CVE-2000-0002'] });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.records.map((r: { id: string }) => r.id)).toEqual(['CVE-2024-50000', 'CVE-2021-44228']);
    expect(body.missing).toEqual(['CVE-2000-0001', 'CVE-2000-0002']);
  });

  it('gives the same result with any Idempotency-Key, or none, and on retry', async () => {
    const ids = { recordIds: ['CVE-2024-50000', 'CVE-2000-0001'] };
    const plain = (await batch(ids)).body;
    expect((await batch(ids, { 'content-type': 'application/json', 'idempotency-key': 'a' })).body).toBe(plain);
    expect((await batch(ids, { 'content-type': 'application/json', 'idempotency-key': 'b'.repeat(255) })).body).toBe(plain);
    expect((await batch(ids)).body).toBe(plain);
  });

  it('accepts 50 ids and rejects 51', async () => {
    const ids = Array.from({ length: 51 }, (_, i) => `CVE-2020-${1000 + i}`);
    expect((await batch({ recordIds: ids.slice(0, 50) })).statusCode).toBe(200);
    expectError(await batch({ recordIds: ids }), 400, 'invalid_body');
  });

  it.each([
    ['an empty list', { recordIds: [] }],
    ['duplicate ids', { recordIds: ['CVE-2024-50000', 'CVE-2024-50000'] }],
    ['a malformed id', { recordIds: ['CVE-24-1'] }],
    ['a non-string id', { recordIds: [2024] }],
    ['an extra property', { recordIds: ['CVE-2024-50000'], more: true }],
    ['no recordIds', {}],
    ['an array body', ['CVE-2024-50000']],
  ])('rejects %s with 400 invalid_body', async (_, payload) => {
    const body = expectError(await batch(payload), 400, 'invalid_body');
    expect(body.error.details.problems.length).toBeGreaterThan(0);
  });

  it('rejects malformed JSON, an empty body, a wrong content type, an oversized body and a bad Idempotency-Key', async () => {
    expectError(await batch('{"recordIds": ['), 400, 'invalid_json');
    expectError(await batch(''), 400, 'invalid_json');
    expectError(await batch({ recordIds: ['CVE-2024-50000'] }, { 'content-type': 'text/plain' }), 400, 'unsupported_media_type');
    expectError(await batch({ recordIds: ['CVE-2024-50000'], pad: 'x'.repeat(70_000) }), 400, 'body_too_large');
    expectError(
      await batch({ recordIds: ['CVE-2024-50000'] }, { 'content-type': 'application/json', 'idempotency-key': 'k'.repeat(256) }),
      400,
      'invalid_header',
    );
    expectError(
      await batch({ recordIds: ['CVE-2024-50000'] }, { 'content-type': 'application/json', 'idempotency-key': '' }),
      400,
      'invalid_header',
    );
  });
});

describe('errors (spec Errors section, rule 5 of Endpoints)', () => {
  it('answers an unknown path with 404 not_found', async () => {
    expectError(await get('/api/v2/cve-records'), 404, 'not_found');
    expectError(await get('/api/v1/cve-records/CVE-2024-50000/extra'), 404, 'not_found');
  });

  it.each([
    ['POST', '/api/v1/health', 'GET, HEAD, OPTIONS'],
    ['DELETE', '/api/v1/cve-records', 'GET, HEAD, OPTIONS'],
    ['PUT', '/api/v1/cve-records/CVE-2024-50000', 'GET, HEAD, OPTIONS'],
    ['GET', '/api/v1/cve-records/batch', 'POST, OPTIONS'],
    ['PATCH', '/ask', 'GET, HEAD, POST, OPTIONS'],
  ])('answers %s %s with 405 and Allow: %s', async (method, url, allow) => {
    const response = await app.inject({ method: method as 'GET', url });
    expectError(response, 405, 'method_not_allowed');
    expect(response.headers.allow).toBe(allow);
  });

  it.each(['SEARCH', 'PROPFIND', 'MKCOL', 'COPY', 'LOCK', 'LINK', 'PURGE', 'M-SEARCH'])(
    'answers the extension method %s on an existing path with 405, not 404 (issue 11, item 10)',
    async (method) => {
      const response = await app.inject({ method: method as 'GET', url: '/api/v1/cve-records' });
      expectError(response, 405, 'method_not_allowed');
      expect(response.headers.allow).toBe('GET, HEAD, OPTIONS');
      expectError(await app.inject({ method: method as 'GET', url: '/no-such-path' }), 404, 'not_found');
    },
  );

  it('sends X-Request-Id on every response, unique per request', async () => {
    const a = await get('/api/v1/health');
    const b = await get('/nope');
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers['x-request-id']).not.toBe(a.headers['x-request-id']);
    for (const response of [a, b]) expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('HTTP manners', () => {
  it('answers HEAD for every GET, without a body', async () => {
    for (const url of ['/api/v1/health', '/api/v1/cve-records', '/api/v1/cve-records/CVE-2021-44228', '/openapi.json', '/ask?query=curl']) {
      const response = await app.inject({ method: 'HEAD', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toBe('');
    }
  });

  it('accepts cross-origin requests and never allows credentials (spec rule 6)', async () => {
    const response = await get('/api/v1/cve-records', { origin: 'https://elsewhere.example' });
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(response.headers['access-control-expose-headers'])).toContain('X-Request-Id');
    const error = await get('/nope', { origin: 'https://elsewhere.example' });
    expect(error.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers a preflight allowing Content-Type and Idempotency-Key', async () => {
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/api/v1/cve-records/batch',
      headers: {
        origin: 'https://elsewhere.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,idempotency-key',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(String(response.headers['access-control-allow-headers'])).toMatch(/Idempotency-Key/);
    expect(String(response.headers['access-control-allow-methods'])).toMatch(/POST/);
  });
});

describe('long project names (issue 11, item 8)', () => {
  it('the project filter takes every project name of the shipped data, the longest included', async () => {
    const real = await buildTestApp({ catalog: await loadDefaultCatalog() });
    try {
      const names = [...new Set((await loadDefaultCatalog()).records.map((record) => record.project))].sort((a, b) => b.length - a.length);
      expect(names[0]!.length).toBeGreaterThan(200);
      for (const name of names.slice(0, 25)) {
        const response = await real.inject({ url: `/api/v1/cve-records?project=${encodeURIComponent(name)}` });
        expect(response.statusCode, name).toBe(200);
        expect(response.json().records.length).toBeGreaterThan(0);
        const page = await real.inject({ url: `/?project=${encodeURIComponent(name)}`, headers: { accept: 'text/html' } });
        expect(page.statusCode, name).toBe(200);
      }
    } finally {
      await real.close();
    }
  });
});
