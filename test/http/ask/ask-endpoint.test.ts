// Issue 4, the /ask endpoint: NLWeb parameters, POST variants, JSON and Server-Sent Events that agree,
// read by a real EventSource client and by a plain fetch reader, and bad input as ErrorResponse.

import { EventSource } from 'eventsource';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCursorCodec } from '../../../src/core/cursor.js';
import { Derived } from '../../../src/core/derived.js';
import { createSnapshot, type Snapshot } from '../../../src/core/snapshot.js';
import { SnapshotStore } from '../../../src/core/snapshot-store.js';
import { buildServer } from '../../../src/http/server.js';
import { buildTestApp, fixtureCatalog, loadDefaultCatalog, testConfig } from '../../support/app.js';
import { OpenApiValidator } from '../../support/openapi-validator.js';

let app: FastifyInstance;
let baseUrl: string;
let contract: OpenApiValidator;

beforeAll(async () => {
  app = await buildTestApp();
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  contract = new OpenApiValidator((await app.inject({ url: '/openapi.json' })).json());
});
afterAll(() => app.close());

interface Event {
  event: string;
  data: any;
}

/** A plain fetch reader: splits the body into events the way the SSE format defines them. */
async function readStream(url: string, init: RequestInit = {}): Promise<{ events: Event[]; comments: string[]; headers: Headers }> {
  const response = await fetch(url, init);
  expect(response.status).toBe(200);
  const text = await response.text();
  const events: Event[] = [];
  const comments: string[] = [];
  for (const block of text.split('\n\n').filter(Boolean)) {
    const lines = block.split('\n');
    comments.push(...lines.filter((line) => line.startsWith(':')));
    const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
    const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
    if (event && data !== undefined) events.push({ event, data: JSON.parse(data) });
  }
  return { events, comments, headers: response.headers };
}

function expectValidEvents(events: Event[]): void {
  const schemaOf: Record<string, string> = {
    start: 'AskStartEvent',
    result: 'AskResultEvent',
    complete: 'AskCompleteEvent',
    error: 'AskErrorEvent',
  };
  for (const { event, data } of events) expect(contract.componentErrors(schemaOf[event]!, data), event).toBeNull();
}

describe('GET /ask as JSON', () => {
  it('answers NLWeb JSON that validates against the contract, with the query that was searched', async () => {
    const response = await app.inject({ url: '/ask?query=CVE-2024-1234' });
    contract.check('/ask', 'GET', response);
    const body = response.json();
    expect(body.query).toBe('CVE-2024-1234');
    expect(body.query_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.results[0]).toMatchObject({ name: 'CVE-2024-1234 (openssl)', site: 'public-cve-records', score: 1 });
  });

  it('echoes query_id, accepts site and prev, and uses the default phrase without a query', async () => {
    const body = (await app.inject({ url: '/ask?query_id=abc-123&site=anything&prev=openssl,curl' })).json();
    expect(body.query_id).toBe('abc-123');
    expect(body.query).toBe('public CVE records');
  });

  it('bounds results by limit (default 10, at most 50)', async () => {
    expect((await app.inject({ url: '/ask?query=openssl&limit=2' })).json().results).toHaveLength(2);
    const tooMany = await app.inject({ url: '/ask?query=openssl&limit=51' });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error).toMatchObject({ code: 'invalid_parameter', details: { parameter: 'limit' } });
  });

  it.each([
    ['/ask?mode=summarize', 'mode'],
    ['/ask?generate_mode=generate', 'generate_mode'],
  ])('%s is a 400 that names the parameter (the mode is an enum in the contract)', async (url, parameter) => {
    const response = await app.inject({ url });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_parameter', details: { parameter } });
  });

  it('accepts mode=list and generate_mode=list', async () => {
    expect((await app.inject({ url: '/ask?query=curl&mode=list&generate_mode=list' })).statusCode).toBe(200);
  });

  it.each([
    [`/ask?query=${'q'.repeat(513)}`, 'query'],
    ['/ask?stream=yes', 'stream'],
    ['/ask?streaming=maybe', 'streaming'],
    ['/ask?query_id=has%20space', 'query_id'],
    ['/ask?limit=0', 'limit'],
  ])('%s is 400 invalid_parameter', async (url, parameter) => {
    const response = await app.inject({ url });
    expect(response.statusCode).toBe(400);
    contract.check('/ask', 'GET', response);
    expect(response.json().error).toMatchObject({ code: 'invalid_parameter', details: { parameter } });
  });
});

describe('POST /ask', () => {
  const expected = async () => (await app.inject({ url: '/ask?query=openssl&limit=3&query_id=q1' })).json();

  it('takes the GET parameters as a JSON object', async () => {
    const response = await app.inject({ method: 'POST', url: '/ask', payload: { query: 'openssl', limit: 3, query_id: 'q1' } });
    expect(response.json()).toEqual(await expected());
  });

  it('takes them as a form', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/ask',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'query=openssl&limit=3&query_id=q1',
    });
    expect(response.json()).toEqual(await expected());
  });

  it('takes the NLWeb structured body', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/ask',
      payload: {
        query: { text: 'openssl', site: 'x', prev: ['curl'] },
        prefer: { streaming: false, mode: 'list', limit: 3 },
        meta: { query_id: 'q1' },
      },
    });
    expect(response.json()).toEqual(await expected());
  });

  it.each([
    ['malformed JSON', { 'content-type': 'application/json' }, '{"query":', 'invalid_json'],
    ['an unknown field', { 'content-type': 'application/json' }, JSON.stringify({ query: 'x', colour: 'red' }), 'invalid_body'],
    [
      'an unknown structured field',
      { 'content-type': 'application/json' },
      JSON.stringify({ query: { text: 'x', lang: 'en' } }),
      'invalid_body',
    ],
    ['an overlong query', { 'content-type': 'application/json' }, JSON.stringify({ query: 'q'.repeat(600) }), 'invalid_body'],
    ['a repeated form field', { 'content-type': 'application/x-www-form-urlencoded' }, 'query=a&query=b', 'invalid_body'],
    ['plain text', { 'content-type': 'text/plain' }, 'openssl', 'unsupported_media_type'],
  ])('answers %s with 400 %s', async (_name, headers, payload, code) => {
    const response = await app.inject({ method: 'POST', url: '/ask', headers, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe(code);
  });

  it('keeps forms out of the other POST operations', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/cve-records/batch',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'ids=CVE-2024-1234',
    });
    expect(response.json().error.code).toBe('unsupported_media_type');
  });
});

describe('the event stream', () => {
  it('sends start, one result per item with its index, then complete; the same results as JSON', async () => {
    const json = (await app.inject({ url: '/ask?query=openssl&query_id=s1' })).json();
    const { events, headers } = await readStream(`${baseUrl}/ask?query=openssl&query_id=s1&stream=true`);
    expect(headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(headers.get('cache-control')).toBe('no-store');
    expect(headers.get('x-request-id')).toBeTruthy();
    expect(events.map((e) => e.event)).toEqual(['start', ...json.results.map(() => 'result'), 'complete']);
    expect(events[0]!.data).toEqual({ query_id: 's1', query: 'openssl' });
    expect(json.understood).toContain('project openssl → openssl');
    expect(events.slice(1, -1).map((e) => e.data)).toEqual(json.results.map((item: unknown, index: number) => ({ index, item })));
    expect(events.at(-1)!.data).toEqual({ query_id: 's1', count: json.results.length, understood: json.understood });
    expectValidEvents(events);
  });

  it.each([
    ['stream=1', {}],
    ['streaming=true', {}],
    ['', { accept: 'text/event-stream' }],
  ])('is chosen by %s %j', async (query, headers) => {
    const { events } = await readStream(`${baseUrl}/ask?query=curl&${query}`, { headers });
    expect(events[0]!.event).toBe('start');
  });

  it('is chosen by a POST structured body preferring streaming', async () => {
    const { events } = await readStream(`${baseUrl}/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: { text: 'curl' }, prefer: { streaming: true } }),
    });
    expect(events.at(-1)!.event).toBe('complete');
  });

  it('is read by a real EventSource client', async () => {
    const source = new EventSource(`${baseUrl}/ask?query=openssl&query_id=es1`);
    const received: Event[] = [];
    await new Promise<void>((resolve, reject) => {
      for (const name of ['start', 'result', 'error'])
        source.addEventListener(name, (e) => received.push({ event: name, data: JSON.parse((e as MessageEvent).data) }));
      source.addEventListener('complete', (e) => {
        received.push({ event: 'complete', data: JSON.parse((e as MessageEvent).data) });
        source.close();
        resolve();
      });
      source.onerror = () => reject(new Error('EventSource failed'));
    });
    expect(received[0]).toMatchObject({ event: 'start', data: { query_id: 'es1', query: 'openssl' } });
    expect(received.filter((e) => e.event === 'result').map((e) => e.data.index)).toEqual([0, 1, 2, 3]);
    expect(received.at(-1)!.data).toMatchObject({ query_id: 'es1', count: 4 });
    expectValidEvents(received);
  });

  it('turns a search that fails mid-stream into an error event, then complete', async () => {
    const config = testConfig();
    // A snapshot whose search index cannot be built: the search fails after the stream has started.
    const broken: Snapshot = {
      ...createSnapshot(fixtureCatalog),
      // biome-ignore lint/correctness/useYield: the build fails before its first step.
      search: new Derived(function* () {
        throw new Error('index unreadable');
      }),
    };
    const failing = await buildServer({ config, store: new SnapshotStore(broken), cursors: createCursorCodec(config.cursorSecret) });
    const url = await failing.listen({ host: '127.0.0.1', port: 0 });
    const { events } = await readStream(`${url}/ask?query=openssl&stream=true&query_id=f1`);
    expect(events.map((e) => e.event)).toEqual(['start', 'error', 'complete']);
    expect(events[1]!.data).toMatchObject({ code: 'internal_error' });
    expect(events[2]!.data).toEqual({ query_id: 'f1', count: 0 });
    expectValidEvents(events);
    await failing.close();
  });

  it('answers bad parameters with an ErrorResponse, not a stream', async () => {
    const response = await fetch(`${baseUrl}/ask?stream=true&mode=summarize`, { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_parameter');
  });
});

describe('any query', () => {
  it('never gets a 500 or a score outside [0, 1], on the real dataset, as JSON or as a form', async () => {
    const { default: fc } = await import('fast-check');
    const real = await buildTestApp({ catalog: await loadDefaultCatalog() });
    const words = fc.constantFrom(
      'openssl',
      'cve',
      '2024',
      'since',
      'before',
      'not',
      'yet',
      'public',
      'linux',
      'kernel',
      'xss',
      'CVE-2025-24530',
      '-',
      '"',
      '%',
      '∞',
      '日本',
    );
    const query = fc.oneof(
      fc.string({ maxLength: 600 }),
      fc.array(words, { maxLength: 12 }).map((w) => w.join(' ')),
      fc.string({ unit: 'grapheme', maxLength: 80 }),
    );
    await fc.assert(
      fc.asyncProperty(query, fc.integer({ min: -2, max: 60 }), fc.boolean(), async (q, limit, asForm) => {
        const response = asForm
          ? await real.inject({
              method: 'POST',
              url: '/ask',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              payload: new URLSearchParams({ query: q, limit: String(limit) }).toString(),
            })
          : await real.inject({ url: `/ask?${new URLSearchParams({ query: q, limit: String(limit) })}` });
        expect([200, 400]).toContain(response.statusCode);
        if (response.statusCode === 400) return;
        const { results } = response.json() as { results: { score: number }[] };
        expect(results.length).toBeLessThanOrEqual(limit);
        for (const result of results) expect(result.score >= 0 && result.score <= 1).toBe(true);
      }),
      { numRuns: 300 },
    );
    await real.close();
  }, 120_000);
});
