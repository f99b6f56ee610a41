// Issue 17: get-one and list send stored record bytes and ETags made without hashing the page. What a
// client sees must be what the contract's serializer would have sent: the same bytes, field for field.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CveRecord, CveRecordPage } from '../../../src/contract/index.js';
import { buildTestApp } from '../../support/app.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

/** The bytes Fastify's serializer makes from the schema: its fields in schema order, nothing else. */
function inSchemaOrder(schema: { properties: Record<string, unknown> }, value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(schema.properties)
      .filter((key) => key in value)
      .map((key) => [key, value[key]]),
  );
}

describe('stored bytes', () => {
  it('get-one sends the record in the schema field order, the same bytes on every request', async () => {
    const first = await app.inject({ url: '/api/v1/cve-records/CVE-2024-1234' });
    const second = await app.inject({ url: '/api/v1/cve-records/CVE-2024-1234' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.body).toBe(JSON.stringify(inSchemaOrder(CveRecord, first.json())));
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
  });

  it.each(['/api/v1/cve-records?limit=3', '/api/v1/cve-records?limit=2&status=public', '/api/v1/cve-records?limit=100'])(
    'a list page (%s) is valid JSON in the schema field order, with pagination as before',
    async (url) => {
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(200);
      const page = response.json();
      const expected = {
        ...inSchemaOrder(CveRecordPage, page),
        records: page.records.map((record: Record<string, unknown>) => inSchemaOrder(CveRecord, record)),
        pagination: inSchemaOrder(CveRecordPage.properties.pagination, page.pagination),
      };
      expect(response.body).toBe(JSON.stringify(expected));
      expect(page.pagination.returned).toBe(page.records.length);
    },
  );

  it('follows the cursor to the next page, whose ETag differs', async () => {
    const first = await app.inject({ url: '/api/v1/cve-records?limit=2' });
    const cursor = first.json().pagination.nextCursor as string;
    const next = await app.inject({ url: `/api/v1/cve-records?limit=2&cursor=${encodeURIComponent(cursor)}` });
    expect(next.statusCode).toBe(200);
    expect(next.json().records[0].id).not.toBe(first.json().records[0].id);
    expect(next.headers.etag).not.toBe(first.headers.etag);
  });
});
