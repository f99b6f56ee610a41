// The batch version check (issue 27): each answer is what the list says with the same filters, in request
// order, one request counted once against the limit, a 400 naming the query that cannot be read, and the
// worst batch (100 distinct checks of the largest project at versions no range places) answered in bounded time.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CveRecordPage, VersionCheckQuery, VersionCheckResponse } from '../../../src/contract/index.js';
import { buildTestApp, loadDefaultCatalog } from '../../support/app.js';

let app: FastifyInstance;

beforeAll(async () => {
  // A day's window: the budget refills so slowly that what one request costs shows in the counter.
  app = await buildTestApp({ catalog: await loadDefaultCatalog(), config: { rateLimit: { max: 1000, windowSeconds: 86_400 } } });
});
afterAll(() => app.close());

const PATH = '/api/v1/cve-records/version-checks/batch';
const check = (payload: unknown) => app.inject({ method: 'POST', url: PATH, payload: payload as object });

async function walk(query: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const response = await app.inject(`/api/v1/cve-records?limit=100&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json() as CveRecordPage;
    ids.push(...page.records.map((record) => record.id));
    cursor = page.pagination.nextCursor;
  }
  return ids;
}

const listQuery = (query: VersionCheckQuery) =>
  Object.entries(query)
    .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
    .join('&');

describe(`POST ${PATH}`, () => {
  const queries: VersionCheckQuery[] = [
    { project: 'OpenSSL', version: '3.0.7' },
    { purl: 'pkg:pypi/apache-airflow@2.7.0' },
    { purl: 'pkg:maven/org.apache.kafka/kafka-clients', version: '3.5.1' },
    { cpe: 'cpe:2.3:a:openssl:openssl:3.0.7:*:*:*:*:*:*:*' },
    { project: 'Linux', version: '6.1.5' },
    { project: 'OpenSSL', version: '3.0.7' },
    { project: 'No Such Project', version: '1.0' },
  ];

  it('answers each query in request order with what the list says for the same filters', async () => {
    const response = await check({ queries });
    expect(response.statusCode, response.body).toBe(200);
    const { results } = response.json() as VersionCheckResponse;
    expect(results).toHaveLength(queries.length);
    for (const [index, query] of queries.entries()) {
      expect(results[index]!.affected, JSON.stringify(query)).toEqual(await walk(listQuery(query)));
      expect(results[index]!.truncated).toBe(false);
      expect(results[index]!.unknown).toBeUndefined();
    }
    expect(results[0]!.affected).toContain('CVE-2024-6119');
    expect(results[1]!.affected).toContain('CVE-2024-45784');
    expect(results[6]!.affected).toEqual([]);
  });

  it('answers the MCP tool check_versions as the REST operation does', async () => {
    const request = { queries: queries.slice(0, 5), includeUnknown: true };
    const rest = (await check(request)).json() as VersionCheckResponse;
    const mcp = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'check_versions', arguments: request } },
    });
    const data = /^data: (.*)$/m.exec(mcp.body)?.[1] ?? mcp.body;
    expect(JSON.parse(data).result.structuredContent).toEqual(rest);
  });

  it('lists the records that cannot tell apart, when asked', async () => {
    const query = { project: 'Linux', version: '6.1.5' };
    const { results } = (await check({ queries: [query], includeUnknown: true })).json() as VersionCheckResponse;
    const [result] = results;
    const all = await walk(`${listQuery(query)}&include_unknown=true`);
    expect(result!.affected).toEqual(await walk(listQuery(query)));
    expect(result!.unknown!.length).toBeGreaterThan(0);
    expect([...result!.affected, ...result!.unknown!].sort()).toEqual([...all].sort());
  });

  it('is counted once against the rate limit', async () => {
    const remaining = async (payload: unknown) => Number((await check(payload)).headers['ratelimit-remaining']);
    const before = await remaining({ queries: [queries[0]] });
    const after = await remaining({ queries: Array.from({ length: 100 }, (_, i) => ({ project: 'OpenSSL', version: `3.0.${i}` })) });
    expect(before - after).toBe(1);
    expect(before - (await remaining({ queries: [queries[0]] }))).toBe(2);
  });

  it.each([
    [{ queries: [{ project: 'OpenSSL', purl: 'pkg:npm/x', version: '1' }] }, '/queries/0 give exactly one'],
    [{ queries: [queries[0], { project: 'OpenSSL' }] }, '/queries/1 give a version'],
    [{ queries: [queries[0], { purl: 'pkg:npm/left-pad' }] }, '/queries/1 give a version'],
    [{ queries: [queries[0], queries[0], { purl: 'pkg:deb/debian/curl@1' }] }, '/queries/2 `purl` is no package URL'],
    [{ queries: [{ cpe: 'cpe:2.3:a:*:*:1.0:*:*:*:*:*:*:*' }] }, 'vendor or a product'],
    [{ queries: [{ purl: 'pkg:npm/x@1', version: '1' }] }, 'given twice'],
    [{ queries: [] }, 'must NOT have fewer than 1 items'],
    [{ queries: Array.from({ length: 101 }, () => queries[0]) }, 'must NOT have more than 100 items'],
    [{ queries: [{ project: 'OpenSSL', version: '3.0.7 or 1' }] }, 'must match pattern'],
    [{ queries: [{ project: 'OpenSSL', version: '3.0.7', extra: 1 }] }, 'unknown property "extra"'],
  ])('refuses %j with a 400 invalid_body naming the query', async (payload, words) => {
    const response = await check(payload);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.code).toBe('invalid_body');
    expect(response.json().error.message).toContain(words);
  });

  it('answers the worst batch in bounded time: 100 distinct checks of the largest project, versions no range places, unknowns too', async () => {
    const largest = 'Linux';
    const worst = Array.from({ length: 100 }, (_, i) => ({ project: largest, version: `${'9.'.repeat(60)}${i}` }));
    await check({ queries: [queries[0]] });
    const started = performance.now();
    const response = await check({ queries: worst, includeUnknown: true });
    const elapsed = performance.now() - started;
    expect(response.statusCode).toBe(200);
    const { results } = response.json() as VersionCheckResponse;
    expect(results).toHaveLength(100);
    expect(results[0]!.unknown!.length).toBeGreaterThan(0);
    // 100 × the 940 kernel records at the sample's size: under a second on a quiet machine, a few on the
    // shared one; a cost that grew with anything but queries × records would pass this bound many times over.
    expect(elapsed).toBeLessThan(15_000);
  });
});
