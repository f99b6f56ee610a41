// Issue 14, item 5: the bulk export. Every line against the contract's line schema, gzip on the wire for
// clients that accept it, plain lines for the others, and validators that follow the dataset version.
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogFile } from '../../../src/contract/index.js';
import { createCursorCodec } from '../../../src/core/cursor.js';
import { createSnapshot } from '../../../src/core/snapshot.js';
import { SnapshotStore } from '../../../src/core/snapshot-store.js';
import { buildServer } from '../../../src/http/server.js';
import { fixtureCatalog, fixtureOrder, testConfig } from '../../support/app.js';
import { OpenApiValidator } from '../../support/openapi-validator.js';

const EXPORT = '/api/v1/cve-records/export';
const catalog: CatalogFile = {
  ...fixtureCatalog,
  records: fixtureCatalog.records.map((record) =>
    record.id === 'CVE-2024-50000' ? { ...record, modified: '2024-11-02T10:20:30.000Z' } : record,
  ),
};

let app: FastifyInstance;
let store: SnapshotStore;
let contract: OpenApiValidator;

beforeAll(async () => {
  const config = testConfig();
  store = new SnapshotStore(createSnapshot(catalog));
  app = await buildServer({ config, store, cursors: createCursorCodec(config.cursorSecret) });
  contract = new OpenApiValidator((await app.inject('/openapi.json')).json());
});
afterAll(() => app.close());

const lines = (body: string) =>
  body
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));

describe('GET /api/v1/cve-records/export', () => {
  it('is one NDJSON line per record, in listing order, each valid against the documented line schema', async () => {
    const response = await app.inject({ url: EXPORT });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-ndjson');
    expect(response.headers['content-disposition']).toBe('attachment; filename="cve-records.ndjson"');
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    expect(response.body.endsWith('\n')).toBe(true);
    const records = lines(response.body);
    expect(records.map((record) => record.id)).toEqual(fixtureOrder);
    for (const record of records) expect(contract.componentErrors('ExportRecord', record)).toBeNull();

    const documented = contract.operation(EXPORT, 'get')!.responses[200].content['application/x-ndjson'];
    expect(documented['x-itemSchema']).toEqual({ $ref: '#/components/schemas/ExportRecord' });
    expect(records.find((record) => record.id === 'CVE-2024-50000')).toEqual({
      id: 'CVE-2024-50000',
      project: 'curl',
      status: 'public',
      url: 'https://www.cve.org/CVERecord?id=CVE-2024-50000',
      published: '2024-10-01',
      modified: '2024-11-02T10:20:30.000Z',
    });
    expect(records.find((record) => record.id === 'CVE-2023-0001')).toEqual({
      id: 'CVE-2023-0001',
      project: 'openssl',
      status: 'assigned-no-public-record',
      url: null,
    });
  });

  it('sends one gzip stream to clients that accept gzip, holding the same lines, and tags it as gzip', async () => {
    const plain = await app.inject({ url: EXPORT, headers: { 'accept-encoding': 'identity' } });
    const gzip = await app.inject({ url: EXPORT, headers: { 'accept-encoding': 'br, gzip;q=0.8' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toContain('Accept-Encoding');
    expect(Number(gzip.headers['content-length'])).toBe(gzip.rawPayload.length);
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gzip.headers.etag).toBe(`${String(plain.headers.etag).slice(0, -1)}-gzip"`);
    const refused = await app.inject({ url: EXPORT, headers: { 'accept-encoding': 'gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body).toBe(plain.body);
  });

  it('answers HEAD with the validators and length of GET, and no body', async () => {
    const get = await app.inject({ url: EXPORT });
    const head = await app.inject({ method: 'HEAD', url: EXPORT });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers['last-modified']).toBe(get.headers['last-modified']);
  });

  it('answers a held ETag (either coding) or an unchanged Last-Modified with 304 and no body', async () => {
    const first = await app.inject({ url: EXPORT, headers: { 'accept-encoding': 'gzip' } });
    const etag = String(first.headers.etag);
    const lastModified = String(first.headers['last-modified']);
    expect(first.headers['cache-control']).toBe('public, max-age=300');
    expect(Date.parse(lastModified)).toBeLessThanOrEqual(Date.now());

    for (const headers of [
      { 'accept-encoding': 'gzip', 'if-none-match': etag },
      { 'if-none-match': etag.replace('-gzip"', '"') },
      { 'if-modified-since': lastModified },
    ]) {
      const again = await app.inject({ url: EXPORT, headers });
      expect(again.statusCode, JSON.stringify(headers)).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers['cache-control']).toBe('public, max-age=300');
      contract.check(EXPORT, 'GET', again);
    }
    const gzip304 = await app.inject({ url: EXPORT, headers: { 'accept-encoding': 'gzip', 'if-none-match': etag } });
    expect(gzip304.headers.etag).toBe(etag);

    const before = new Date(Date.parse(lastModified) - 1000).toUTCString();
    expect((await app.inject({ url: EXPORT, headers: { 'if-modified-since': before } })).statusCode).toBe(200);
    // If-None-Match decides when both are sent (RFC 9110 §13.1.3).
    expect((await app.inject({ url: EXPORT, headers: { 'if-none-match': '"other"', 'if-modified-since': lastModified } })).statusCode).toBe(
      200,
    );
  });

  it('changes its ETag and content when the dataset changes, and a held ETag then downloads again', async () => {
    const before = await app.inject({ url: EXPORT });
    const previous = store.current;
    store.replace(createSnapshot({ ...catalog, records: catalog.records.filter((record) => record.id !== 'CVE-2021-44228') }));
    try {
      const after = await app.inject({ url: EXPORT, headers: { 'if-none-match': String(before.headers.etag) } });
      expect(after.statusCode).toBe(200);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(lines(after.body).map((record) => record.id)).toEqual(fixtureOrder.filter((id) => id !== 'CVE-2021-44228'));
    } finally {
      store.replace(previous);
    }
  });
});
