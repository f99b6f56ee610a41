// Issues 4 and 16, the /ask endpoint: NLWeb parameters (honoured, or accepted, ignored and reported), POST
// variants, JSON and Server-Sent Events that agree, the stream as NLWeb clients read it (unnamed events
// with `message_type`: a real EventSource client's onmessage, and the raw bytes), /sites, and bad input as
// ErrorResponse.

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

type Message = { message_type: string; query_id: string } & Record<string, any>;

/**
 * A plain fetch reader, as `curl -N` shows the stream: the raw text, and the data of each event. Every
 * event must be unnamed (no `event:` line), or `EventSource.onmessage` would never see it.
 */
async function readStream(url: string, init: RequestInit = {}): Promise<{ messages: Message[]; raw: string; headers: Headers }> {
  const response = await fetch(url, init);
  expect(response.status).toBe(200);
  const raw = await response.text();
  const messages: Message[] = [];
  for (const block of raw.split('\n\n').filter(Boolean)) {
    const lines = block.split('\n').filter((line) => !line.startsWith(':'));
    if (lines.length === 0) continue;
    expect(lines, block).toHaveLength(1);
    expect(lines[0]).toMatch(/^data: \{/);
    messages.push(JSON.parse(lines[0]!.slice('data: '.length)));
  }
  return { messages, raw, headers: response.headers };
}

/** Each message validates against its schema in the served OpenAPI document, found by its `message_type`. */
function expectValidMessages(messages: Message[]): void {
  const named = contract.operation('/ask', 'GET')!.responses[200].content['text/event-stream']['x-messages'];
  for (const message of messages) {
    const ref: string | undefined = named[message.message_type]?.$ref;
    expect(ref, message.message_type).toBeDefined();
    expect(contract.componentErrors(ref!.replace('#/components/schemas/', ''), message), message.message_type).toBeNull();
  }
}

const types = (messages: Message[]) => messages.map((m) => m.message_type);

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
    ['mode=summarize', 'summarize'],
    ['generate_mode=generate', 'generate'],
    ['generate_mode=none', 'none'],
    ['mode=list,summarize', 'list,summarize'],
  ])('falls back to a list for %s and says so', async (query, requested) => {
    const response = await app.inject({ url: `/ask?query=curl&${query}` });
    contract.check('/ask', 'GET', response);
    expect(response.json()).toMatchObject({ mode: 'list', requested_mode: requested });
    expect(response.json().results.length).toBeGreaterThan(0);
  });

  it('accepts mode=list and generate_mode=list, with nothing to report', async () => {
    const response = await app.inject({ url: '/ask?query=curl&mode=list&generate_mode=list' });
    expect(response.statusCode).toBe(200);
    expect(response.json().mode).toBe('list');
    expect(response.json()).not.toHaveProperty('requested_mode');
    expect(response.json()).not.toHaveProperty('ignored');
  });

  it('accepts the query strings of NLWeb reference UIs and reports what it cannot honour', async () => {
    // What NLWeb's chat UIs send (static/fp-chat-interface.js, static/chat-interface.js), with values as they send them.
    const params = new URLSearchParams({
      query: 'openssl',
      generate_mode: 'list',
      display_mode: 'full',
      site: 'all',
      prev: JSON.stringify(['curl']),
      last_ans: JSON.stringify([{ title: 'CVE-2024-1234 (openssl)', url: 'https://example.org/' }]),
      item_to_remember: '',
      context_url: '',
      thread_id: '1712345678',
      query_id: 'query_1712345678_42',
    });
    const response = await app.inject({ url: `/ask?${params}` });
    contract.check('/ask', 'GET', response);
    expect(response.json()).toMatchObject({
      query_id: 'query_1712345678_42',
      query: 'openssl',
      mode: 'list',
      ignored: ['display_mode', 'prev', 'last_ans', 'item_to_remember', 'context_url', 'thread_id'],
    });
    expect(response.json().results[0].name).toContain('(openssl)');
  });

  it('honours site=all and its own site name, and reports another site as ignored', async () => {
    expect((await app.inject({ url: '/ask?query=curl&site=public-cve-records' })).json()).not.toHaveProperty('ignored');
    expect((await app.inject({ url: '/ask?query=curl&site=all' })).json()).not.toHaveProperty('ignored');
    expect((await app.inject({ url: '/ask?query=curl&site=seriouseats' })).json().ignored).toEqual(['site']);
  });

  it('searches decontextualized_query instead of query when it is given', async () => {
    const body = (await app.inject({ url: '/ask?query=and%20that%20one&decontextualized_query=CVE-2024-1234' })).json();
    expect(body.query).toBe('CVE-2024-1234');
    expect(body.results[0]).toMatchObject({ name: 'CVE-2024-1234 (openssl)', score: 1 });
  });

  it("answers a spec client with the spec's closed NlwebResult, and one that speaks NLWeb with the stream's items", async () => {
    const closed = ['name', 'score', 'site', 'snippet', 'url'];
    const [plain, withStream, nlweb] = await Promise.all(
      ['/ask?query=openssl', '/ask?query=openssl&stream=false', '/ask?query=openssl&streaming=0'].map((url) => app.inject({ url })),
    );
    for (const response of [plain!, withStream!]) expect(Object.keys(response.json().results[0]).sort()).toEqual(closed);
    // `streaming` is NLWeb's name of `stream`: a client that uses it reads `description` in JSON as in the stream.
    contract.check('/ask', 'GET', nlweb!);
    const { messages } = await readStream(`${baseUrl}/ask?query=openssl&streaming=1`);
    const streamed = messages.filter((m) => m.message_type === 'result').flatMap((m) => m.content);
    expect(nlweb!.json().results).toEqual(streamed);
    expect(nlweb!.json().results[0].description).toBe(plain!.json().results[0].snippet);
    expect(nlweb!.json()).toEqual({ ...plain!.json(), query_id: nlweb!.json().query_id, results: streamed });
  });

  it("still refuses parameters that are not NLWeb's, and modes it does not know", async () => {
    for (const [url, parameter] of [
      ['/ask?colour=red', 'colour'],
      ['/ask?mode=chat', 'mode'],
    ]) {
      const response = await app.inject({ url: url! });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.details).toMatchObject({ parameter });
    }
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
  /** The answer to an NLWeb client (`streaming=false`): NLWeb items. */
  const expectedByNlweb = async () => (await app.inject({ url: '/ask?query=openssl&limit=3&query_id=q1&streaming=false' })).json();

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

  it('takes the NLWeb structured body, reporting what it ignores', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/ask',
      payload: {
        query: { text: 'openssl', site: 'x', prev: ['curl'] },
        prefer: { streaming: false, mode: 'list', limit: 3 },
        meta: { query_id: 'q1' },
      },
    });
    expect(response.json()).toEqual({ ...(await expectedByNlweb()), ignored: ['site', 'prev'] });
  });

  it('takes the nested body of the newer protocol, with context.prev (as NLWeb search-components send it)', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/ask',
      payload: {
        query: { text: 'openssl', site: 'all', num_results: 3 },
        prefer: { streaming: false, response_format: 'conv_search', mode: 'list, summarize' },
        meta: { api_version: '0.54', query_id: 'q1', user: { id: 'u' } },
        context: { '@type': 'ConversationalContext', prev: ['curl', 'linux'] },
      },
    });
    contract.check('/ask', 'POST', response);
    expect(response.json()).toEqual({
      ...(await expectedByNlweb()),
      requested_mode: 'list, summarize',
      ignored: ['prev', 'response_format'],
    });
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
  it('sends unnamed messages: begin, one result per item, a result_batch, end, complete; the same results as JSON', async () => {
    const json = (await app.inject({ url: '/ask?query=openssl&query_id=s1' })).json();
    const { messages, headers } = await readStream(`${baseUrl}/ask?query=openssl&query_id=s1&stream=true`);
    expect(headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(headers.get('cache-control')).toBe('no-store');
    expect(headers.get('x-request-id')).toBeTruthy();
    expect(types(messages)).toEqual([
      'begin-nlweb-response',
      ...json.results.map(() => 'result'),
      'result_batch',
      'end-nlweb-response',
      'complete',
    ]);
    expect(messages.every((m) => m.query_id === 's1')).toBe(true);
    expect(messages[0]).toEqual({ message_type: 'begin-nlweb-response', query_id: 's1', query: 'openssl', mode: 'list' });
    const items = messages.filter((m) => m.message_type === 'result').flatMap((m) => m.content);
    // Each item is the JSON result plus what NLWeb UIs render: description and schema_object.
    expect(items.map(({ url, name, site, score, snippet }) => ({ url, name, site, score, snippet }))).toEqual(json.results);
    expect(messages.find((m) => m.message_type === 'result_batch')!.results).toEqual(items);
    expect(items[0]).toMatchObject({
      description: json.results[0].snippet,
      schema_object: {
        '@context': 'https://schema.org',
        '@type': 'CreativeWork',
        identifier: json.results[0].name.split(' ')[0],
        about: { '@type': 'SoftwareApplication', name: 'openssl' },
        creativeWorkStatus: 'public',
      },
    });
    expect(messages.at(-1)).toEqual({ message_type: 'complete', query_id: 's1', count: json.results.length, understood: json.understood });
    expectValidMessages(messages);
  });

  it('looks on the wire as curl shows it: data lines only, no event names', async () => {
    const { raw } = await readStream(`${baseUrl}/ask?query=CVE-2024-1234&stream=true&query_id=raw1`);
    expect(raw).not.toMatch(/^event:/m);
    expect(raw.startsWith('data: {"message_type":"begin-nlweb-response","query_id":"raw1"')).toBe(true);
    expect(raw.endsWith('data: {"message_type":"complete","query_id":"raw1","count":1,"understood":["id CVE-2024-1234"]}\n\n')).toBe(true);
  });

  it('tells a stream client of the fallback and of what it ignored, first thing', async () => {
    const { messages } = await readStream(`${baseUrl}/ask?query=curl&stream=1&generate_mode=summarize&thread_id=t1`);
    expect(messages[0]).toMatchObject({ mode: 'list', requested_mode: 'summarize', ignored: ['thread_id'] });
    expectValidMessages(messages);
  });

  it('sends no result_batch when nothing is found', async () => {
    const { messages } = await readStream(`${baseUrl}/ask?query=zzzzqqqq&stream=true`);
    expect(types(messages)).toEqual(['begin-nlweb-response', 'end-nlweb-response', 'complete']);
    expect(messages.at(-1)!.count).toBe(0);
  });

  it.each([
    ['stream=1', {}],
    ['streaming=true', {}],
    ['', { accept: 'text/event-stream' }],
  ])('is chosen by %s %j', async (query, headers) => {
    const { messages } = await readStream(`${baseUrl}/ask?query=curl&${query}`, { headers });
    expect(messages[0]!.message_type).toBe('begin-nlweb-response');
  });

  it('is chosen by a POST structured body preferring streaming', async () => {
    const { messages } = await readStream(`${baseUrl}/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: { text: 'curl' }, prefer: { streaming: true }, context: { prev: ['openssl'] } }),
    });
    expect(messages.at(-1)!.message_type).toBe('complete');
  });

  it('reaches a real EventSource client through onmessage, as NLWeb UIs listen', async () => {
    const source = new EventSource(`${baseUrl}/ask?query=openssl&query_id=es1&generate_mode=list&display_mode=full&site=all`);
    const received: Message[] = [];
    await new Promise<void>((resolve, reject) => {
      source.onmessage = (event) => {
        const message = JSON.parse(event.data) as Message;
        received.push(message);
        // As NLWeb's UIs do: close on `complete`, or the EventSource would reconnect and ask again.
        if (message.message_type === 'complete') {
          source.close();
          resolve();
        }
      };
      source.onerror = () => reject(new Error('EventSource failed'));
    });
    expect(received[0]).toMatchObject({
      message_type: 'begin-nlweb-response',
      query_id: 'es1',
      query: 'openssl',
      ignored: ['display_mode'],
    });
    expect(received.filter((m) => m.message_type === 'result').map((m) => m.content[0].name)).toHaveLength(4);
    expect(received.at(-1)).toMatchObject({ query_id: 'es1', count: 4 });
    expectValidMessages(received);
  });

  it('turns a search that fails mid-stream into an error message, then the end', async () => {
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
    const { messages } = await readStream(`${url}/ask?query=openssl&stream=true&query_id=f1`);
    expect(types(messages)).toEqual(['begin-nlweb-response', 'error', 'end-nlweb-response', 'complete']);
    expect(messages[1]).toMatchObject({ code: 'internal_error', message: expect.any(String) });
    expect(messages[3]).toEqual({ message_type: 'complete', query_id: 'f1', count: 0 });
    expectValidMessages(messages);
    await failing.close();
  });

  it('answers bad parameters with an ErrorResponse, not a stream', async () => {
    const response = await fetch(`${baseUrl}/ask?stream=true&mode=chat`, { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_parameter');
  });
});

describe('GET /sites', () => {
  it("answers as NLWeb's /sites does: this service is its one site", async () => {
    const response = await app.inject({ url: '/sites?streaming=false' });
    contract.check('/sites', 'GET', response);
    expect(response.json()).toEqual({ 'message-type': 'sites', sites: ['public-cve-records'] });
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
