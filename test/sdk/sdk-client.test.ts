// Issue 7, the SDK against a running service: every method, pagination to the end, batches over 50,
// the stream of a search, and error answers as typed errors.
import { CveRecordsClient, CveRecordsError, type ExportRecord, type SearchMessage } from '@public-cve-records/sdk';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_MAX_IDS } from '../../src/contract/index.js';
import { compareListingOrder } from '../../src/core/cve-id.js';
import { buildTestApp, fixtureCatalog, fixtureOrder, loadDefaultCatalog } from '../support/app.js';

let app: FastifyInstance;
let baseUrl: string;
/** Every request the client sent, as `METHOD path?query`, in order. */
let sent: string[];
let client: CveRecordsClient;

beforeAll(async () => {
  app = await buildTestApp({ catalog: await loadDefaultCatalog() });
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => app.close());

function recordingClient(url = baseUrl): CveRecordsClient {
  sent = [];
  return new CveRecordsClient({
    baseUrl: url,
    // Requests that got an answer: a request the SDK sends again because its connection was reset before
    // any answer (sdk-resilience.test.ts) is not a retry of an answer.
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      const target = new URL(String(input));
      sent.push(`${init?.method ?? 'GET'} ${target.pathname}${target.search}`);
      return response;
    },
  });
}

describe('SDK: one method per operation', () => {
  beforeAll(() => {
    client = recordingClient();
  });

  it('health, capabilities and sandbox return the service documents', async () => {
    expect(await client.health()).toMatchObject({ status: 'ok', readOnly: true, assessmentExecution: false });
    const capabilities = await client.capabilities();
    expect(capabilities.capabilities).toContain('listPublicCveRecords');
    expect(capabilities.dataset?.records).toBe((await loadDefaultCatalog()).records.length);
    expect(await client.sandbox()).toMatchObject({ mode: 'sandbox', readOnly: true, persistent: false });
  });

  it('records.list returns one filtered page and records.get one record', async () => {
    const page = await client.records.list({ project: 'Linux', status: 'public', limit: 5 });
    expect(page.records).toHaveLength(5);
    expect(page.records.every((record) => record.project === 'Linux' && record.status === 'public')).toBe(true);
    expect(page.pagination.nextCursor).toEqual(expect.any(String));
    const next = await client.records.list({ project: 'Linux', status: 'public', limit: 5, cursor: page.pagination.nextCursor! });
    expect(next.records[0]!.id).not.toBe(page.records[0]!.id);

    const first = page.records[0]!;
    expect(await client.records.get(first.id)).toEqual(first);
  });

  it('listProjects names the projects the list filter takes, and records.list filters on details', async () => {
    const projects = await client.listProjects({ q: 'opnssl', limit: 5 });
    const openssl = projects.projects.find((project) => project.name === 'OpenSSL')!;
    expect(openssl.records.public).toBeGreaterThan(0);
    const listed = await client.records.list({ project: 'OpenSSL', status: 'public', limit: 1 });
    expect(listed.pagination.total).toBe(openssl.records.public);
    const critical = await client.records.list({ severity: 'critical', kev: true, limit: 3 });
    const details = await client.records.batchGetDetails(critical.records.map((record) => record.id));
    expect(details.records.every((record) => record.severity === 'critical' && record.kev !== null)).toBe(true);
    expect(sent).toContain('GET /api/v1/cve-records?severity=critical&kev=true&limit=3');
  });

  it('records.changesSince walks the change feed to its end and returns the token of the next poll', async () => {
    const walk = client.records.changesSince('2025-01-20T00:00:00Z', { limit: 200 });
    const ids: string[] = [];
    let step = await walk.next();
    for (; !step.done; step = await walk.next()) ids.push(step.value.id);
    const expected = (await loadDefaultCatalog()).records.filter((r) => r.modified !== undefined && r.modified >= '2025-01-20T00:00:00Z');
    expect(ids.toSorted()).toEqual(expected.map((r) => r.id).toSorted());
    expect(sent.filter((line) => line.startsWith('GET /api/v1/cve-records/changes'))).toHaveLength(Math.ceil(expected.length / 200) || 1);
    const poll = await client.records.changes({ since: step.value });
    expect(poll.changes).toEqual([]);
  });

  it('search returns the /ask answer for a query given as text or as parameters', async () => {
    const { id } = (await loadDefaultCatalog()).records[0]!;
    const answer = await client.search(id);
    expect(answer.results[0]).toMatchObject({ name: expect.stringContaining(id), score: 1 });
    expect(answer.query).toBe(id);
    const limited = await client.search({ query: 'linux kernel', limit: 3 });
    expect(limited.results).toHaveLength(3);
    expect(sent.at(-1)).toBe('GET /ask?query=linux+kernel&limit=3');
  });

  it('searchStream yields the NLWeb messages: begin, each result in rank order, end, complete, as the JSON answer has them', async () => {
    const messages: SearchMessage[] = [];
    for await (const message of client.searchStream({ query: 'openssl', limit: 4 })) messages.push(message);
    expect(messages.map((m) => m.message_type)).toEqual([
      'begin-nlweb-response',
      'result',
      'result',
      'result',
      'result',
      'end-nlweb-response',
      'complete',
    ]);
    const json = await client.search({ query: 'openssl', limit: 4 });
    const items = messages.flatMap((m) => (m.message_type === 'result' ? m.content : []));
    expect(items.map(({ url, name, site, score, snippet }) => ({ url, name, site, score, snippet }))).toEqual(json.results);
    expect(items[0]).toMatchObject({ description: json.results[0]!.snippet, schema_object: { '@type': 'CreativeWork' } });
    expect(messages.at(-1)).toMatchObject({ message_type: 'complete', query_id: messages[0]!.query_id, count: 4 });
  });

  it('searchStream stops the stream when the loop is left early', async () => {
    const seen: string[] = [];
    for await (const message of client.searchStream('Linux')) {
      seen.push(message.message_type);
      if (message.message_type === 'result') break;
    }
    expect(seen).toEqual(['begin-nlweb-response', 'result']);
  });
});

describe('SDK: walks', () => {
  it('records.listAll walks every cursor to the end, in listing order, 100 a page', async () => {
    client = recordingClient();
    const ids: string[] = [];
    for await (const record of client.records.listAll({ project: 'Linux' })) ids.push(record.id);
    const total = (await loadDefaultCatalog()).records.filter((record) => record.project === 'Linux').length;
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    expect(sent.filter((line) => line.startsWith('GET /api/v1/cve-records?'))).toHaveLength(Math.ceil(total / 100));
  });

  it('records.listAll honours a smaller limit and ends on the last page', async () => {
    const fixture = await buildTestApp({ catalog: fixtureCatalog });
    client = recordingClient(await fixture.listen({ host: '127.0.0.1', port: 0 }));
    const ids: string[] = [];
    for await (const record of client.records.listAll({ limit: 3 })) ids.push(record.id);
    expect(ids).toEqual(fixtureOrder);
    expect(sent).toHaveLength(3);
    await fixture.close();
  });

  it('records.batchGet takes any number of ids: drops duplicates, sends 50 a call, keeps the caller order', async () => {
    client = recordingClient();
    const known = (await client.records.list({ limit: 100 })).records.map((record) => record.id);
    // 100 known ids in reverse listing order, 25 unknown ones between them, and duplicates of both.
    const unknown = Array.from({ length: 25 }, (_, i) => `CVE-1999-${9000 + i}`);
    const asked = known.toReversed().flatMap((id, i) => (i < 25 ? [id, unknown[i]!] : [id]));
    const withDuplicates = [...asked, ...asked.slice(0, 30)];
    sent = [];

    const answer = await client.records.batchGet(withDuplicates);

    expect(answer.records.map((record) => record.id)).toEqual(known.toReversed());
    expect(answer.missing).toEqual(unknown);
    expect(sent).toEqual(Array(Math.ceil(asked.length / BATCH_MAX_IDS)).fill('POST /api/v1/cve-records/batch'));
  });

  it('records.getDetails and records.batchGetDetails answer typed details, the batch 50 ids a call', async () => {
    client = recordingClient();
    const details = await client.records.getDetails('CVE-2025-21335');
    expect(details).toMatchObject({ id: 'CVE-2025-21335', status: 'public', state: 'PUBLISHED', kev: { dateAdded: '2025-01-14' } });
    expect(details.metrics[0]?.version).toBe('3.1');
    const known = (await client.records.list({ limit: 60 })).records.map((record) => record.id);
    sent = [];
    const answer = await client.records.batchGetDetails([...known, 'CVE-1999-9000']);
    expect(answer.records.map((record) => record.id)).toEqual(known);
    expect(answer.missing).toEqual(['CVE-1999-9000']);
    expect(answer.records[0]).toEqual(await client.records.getDetails(known[0]!));
    expect(sent.slice(0, 2)).toEqual(Array(2).fill('POST /api/v1/cve-records/details/batch'));
  });

  it('records.batchGet of no ids answers without a request', async () => {
    client = recordingClient();
    expect(await client.records.batchGet([])).toEqual({ records: [], missing: [] });
    expect(sent).toEqual([]);
  });
});

describe('SDK: the export', () => {
  it('records.export yields every record with its dates, read from one gzip download', async () => {
    const codings: (string | null)[] = [];
    const exporter = new CveRecordsClient({
      baseUrl,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        codings.push(response.headers.get('content-encoding'));
        return response;
      },
    });
    const exported: ExportRecord[] = [];
    for await (const record of exporter.records.export()) exported.push(record);
    expect(codings).toEqual(['gzip']);

    const catalog = await loadDefaultCatalog();
    expect(exported.map((record) => record.id)).toEqual(
      [...catalog.records].sort((a, b) => compareListingOrder(a.id, b.id)).map((r) => r.id),
    );
    const byId = new Map(catalog.records.map((record) => [record.id, record]));
    for (const record of exported) {
      const source = byId.get(record.id)!;
      expect(record).toMatchObject({ project: source.project, status: source.status, url: source.url });
      expect(record.published).toBe(source.published);
      expect(record.modified === undefined ? undefined : Date.parse(record.modified)).toBe(
        source.modified === undefined ? undefined : Date.parse(source.modified),
      );
    }
  });
});

describe('SDK: error answers', () => {
  it('maps a 404 to CveRecordsError with status, code, message, details and requestId, and never retries it', async () => {
    client = recordingClient();
    const error = await client.records.get('CVE-1999-0001').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CveRecordsError);
    expect(error).toMatchObject({
      name: 'CveRecordsError',
      status: 404,
      code: 'record_not_found',
      message: 'There is no record CVE-1999-0001.',
      details: { recordId: 'CVE-1999-0001' },
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(sent).toHaveLength(1);
  });

  it('maps a 400 and never retries it', async () => {
    client = recordingClient();
    const error = (await client.records.list({ cursor: 'not-a-cursor' }).catch((e: unknown) => e)) as CveRecordsError;
    expect(error).toMatchObject({ status: 400, code: 'invalid_cursor', message: expect.any(String), requestId: expect.any(String) });
    const batch = (await client.records.batchGet(['not-an-id']).catch((e: unknown) => e)) as CveRecordsError;
    expect(batch).toMatchObject({ status: 400, code: 'invalid_body' });
    expect(sent).toHaveLength(2);
  });
});
