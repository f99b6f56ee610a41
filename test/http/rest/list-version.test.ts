// `version=` on the list (issue 27): over the shipped catalog, the records whose affected entries for the
// project say a version is affected, cursors bound to the version, and bad or lone versions refused.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CveRecordDetails, CveRecordPage } from '../../../src/contract/index.js';
import { checkRecord } from '../../../src/core/versions/record-check.js';
import { buildTestApp, loadDefaultCatalog } from '../../support/app.js';

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp({ catalog: await loadDefaultCatalog() });
});
afterAll(() => app.close());

async function walk(query: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const response = await app.inject(`/api/v1/cve-records?limit=3&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json() as CveRecordPage;
    ids.push(...page.records.map((record) => record.id));
    cursor = page.pagination.nextCursor;
  }
  return ids;
}

describe('GET /api/v1/cve-records?project=&version=', () => {
  it('lists the OpenSSL records affecting 3.0.7, CVE-2024-6119 among them, and not those fixed before it', async () => {
    const ids = await walk('project=OpenSSL&version=3.0.7');
    expect(ids).toContain('CVE-2024-6119');
    const all = await walk('project=OpenSSL');
    for (const id of all.filter((id) => !ids.includes(id))) {
      const details = (await app.inject(`/api/v1/cve-records/${id}/details`)).json() as CveRecordDetails;
      expect(checkRecord(details, '3.0.7').status, id).not.toBe('affected');
    }
    expect(await walk('project=OpenSSL&version=3.0.15')).not.toContain('CVE-2024-6119');
  });

  it('pages with a total that counts the same records, and lists the unknown ones only when asked', async () => {
    const first = (await app.inject('/api/v1/cve-records?project=Linux&version=6.1.5&limit=5')).json() as CveRecordPage;
    const ids = await walk('project=Linux&version=6.1.5');
    expect(first.pagination.total).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(0);
    const withUnknown = await walk('project=Linux&version=6.1.5&include_unknown=true');
    expect(withUnknown.length).toBeGreaterThanOrEqual(ids.length);
    for (const id of ids) expect(withUnknown).toContain(id);
  });

  it('binds cursors to the version: a cursor reused with another version is a 400', async () => {
    const page = (await app.inject('/api/v1/cve-records?project=Linux&version=6.1.5&limit=1')).json() as CveRecordPage;
    expect(page.pagination.nextCursor).not.toBeNull();
    const other = await app.inject(
      `/api/v1/cve-records?project=Linux&version=6.1.6&limit=1&cursor=${encodeURIComponent(page.pagination.nextCursor!)}`,
    );
    expect(other.statusCode).toBe(400);
    expect(other.json().error.code).toBe('invalid_cursor');
    const plain = (await app.inject('/api/v1/cve-records?project=Linux&limit=1')).json() as CveRecordPage;
    const reused = await app.inject(`/api/v1/cve-records?project=Linux&limit=1&cursor=${encodeURIComponent(plain.pagination.nextCursor!)}`);
    expect(reused.statusCode).toBe(200);
  });

  it('refuses a version without a project, include_unknown without a version, and versions that are no versions, with 400s', async () => {
    for (const query of [
      'version=3.0.7',
      'project=OpenSSL&include_unknown=true',
      `project=OpenSSL&version=${'9'.repeat(129)}`,
      'project=OpenSSL&version=3.0.7%20or%201',
      'project=OpenSSL&version=',
    ]) {
      const response = await app.inject(`/api/v1/cve-records?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.code, query).toBe('invalid_parameter');
    }
  });

  it('answers the worst version for the largest project in bounded time', async () => {
    const worst = `${'9.'.repeat(63)}9`;
    const started = performance.now();
    const response = await app.inject(`/api/v1/cve-records?project=Linux&version=${worst}&include_unknown=true`);
    expect(response.statusCode).toBe(200);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
