// The change feed over HTTP: contract, caching, errors, and a client's full walk of the embedded dataset.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loadDefaultCatalog } from '../../support/app.js';
import { OpenApiValidator } from '../../support/openapi-validator.js';

let app: FastifyInstance;
let contract: OpenApiValidator;
beforeAll(async () => {
  app = await buildTestApp({ catalog: await loadDefaultCatalog() });
  contract = new OpenApiValidator((await app.inject({ url: '/openapi.json' })).json());
});
afterAll(() => app.close());

const PATH = '/api/v1/cve-records/changes';
const get = (query: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: `${PATH}${query}`, headers });

describe('GET /api/v1/cve-records/changes', () => {
  it('answers pages that match the contract, oldest change first', async () => {
    const response = await get('?limit=50&since=2025-01-01T00:00:00Z');
    contract.check(PATH, 'get', response);
    const { changes, pagination } = response.json();
    expect(changes).toHaveLength(50);
    expect(pagination).toMatchObject({ limit: 50, returned: 50, hasMore: true });
    const times = changes.map((change: { modified: string }) => Date.parse(change.modified));
    expect(times).toEqual(times.toSorted((a: number, b: number) => a - b));
    expect(times[0]).toBeGreaterThanOrEqual(Date.parse('2025-01-01T00:00:00Z'));
  });

  it('walks the whole embedded dataset with its tokens: every record once, then an empty poll', async () => {
    const catalog = await loadDefaultCatalog();
    const seen = new Set<string>();
    let since: string | undefined;
    let requests = 0;
    for (;;) {
      const response = await get(`?limit=1000${since ? `&since=${encodeURIComponent(since)}` : ''}`);
      requests++;
      expect(response.statusCode).toBe(200);
      const { changes, pagination } = response.json();
      for (const change of changes) {
        expect(seen.has(change.id), change.id).toBe(false);
        seen.add(change.id);
      }
      since = pagination.next;
      if (!pagination.hasMore) break;
    }
    expect(seen.size).toBe(catalog.records.length);
    expect(requests).toBe(Math.ceil(catalog.records.length / 1000));
    const poll = (await get(`?since=${encodeURIComponent(since!)}`)).json();
    expect(poll.changes).toEqual([]);
    expect(poll.pagination).toMatchObject({ returned: 0, hasMore: false, next: since });
  });

  it('is cacheable: a strong ETag, and 304 for If-None-Match', async () => {
    const first = await get('?limit=5');
    expect(first.headers.etag).toBeDefined();
    const again = await get('?limit=5', { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    contract.check(PATH, 'get', again);
  });

  it('refuses a bad since, a bad limit and unknown parameters with the error shape', async () => {
    for (const [query, code] of [
      ['?since=not-a-token', 'invalid_cursor'],
      ['?since=2025-02-30T00:00:00Z', 'invalid_cursor'],
      ['?limit=1001', 'invalid_parameter'],
      ['?limit=0', 'invalid_parameter'],
      ['?project=Linux', 'unknown_parameter'],
    ] as const) {
      const response = await get(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.code, query).toBe(code);
      contract.check(PATH, 'get', response);
    }
  });
});
