// Raw JSON-RPC to /a2a over a real socket: every method the agent does not support gets its A2A error
// code, malformed requests get the JSON-RPC ones, and 0.3 clients are answered in 0.3 shapes.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_DETAILS } from '../../../src/contract/index.js';
import { buildTestApp } from '../../support/app.js';

let app: FastifyInstance;
let endpoint: string;
beforeAll(async () => {
  app = await buildTestApp();
  await app.listen({ host: '127.0.0.1', port: 0 });
  endpoint = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/a2a`;
});
afterAll(() => app.close());

interface Envelope {
  jsonrpc: string;
  id: string | number | null;
  result?: Record<string, any>;
  error?: { code: number; message: string };
}

async function send(body: string, version: string | null = '1.0'): Promise<{ status: number; headers: Headers; envelope: Envelope }> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(version ? { 'a2a-version': version } : {}) },
    body,
  });
  return { status: response.status, headers: response.headers, envelope: (await response.json()) as Envelope };
}

const call = (method: string, params: unknown, version: string | null = '1.0') =>
  send(JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }), version);

const userMessage = (text: string) => ({ message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text }] } });

describe('SendMessage', () => {
  it('answers with a Message: a text part and a data part with the records', async () => {
    const { status, envelope } = await call('SendMessage', userMessage('CVE-2025-9999'));
    expect(status).toBe(200);
    const message = envelope.result!.message;
    expect(message.role).toBe('ROLE_AGENT');
    expect(message.parts[0].text).toContain('CVE-2025-9999');
    expect(message.parts[1].data.results[0].record).toMatchObject({ id: 'CVE-2025-9999', project: 'openssl' });
  });

  it('spells out the details of a record asked for by id in the text part', async () => {
    const withDetails = await buildTestApp({
      catalog: {
        lastVerified: '2025-01-24',
        records: [
          {
            id: 'CVE-2024-6119',
            project: 'OpenSSL',
            status: 'public',
            url: 'https://www.cve.org/CVERecord?id=CVE-2024-6119',
            details: {
              ...NO_DETAILS,
              description: 'Certificate name checks may crash.',
              metrics: [
                {
                  version: '3.1',
                  vector: 'CVSS:3.1/AV:N',
                  baseScore: 7.5,
                  severity: 'high',
                  source: { container: 'adp', shortName: 'CISA-ADP' },
                },
              ],
              kev: { dateAdded: '2024-09-10', reference: null },
            },
          },
        ],
      },
    });
    const response = await withDetails.inject({
      method: 'POST',
      url: '/a2a',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: userMessage('CVE-2024-6119') }),
    });
    await withDetails.close();
    const text: string = response.json().result.message.parts[0].text;
    expect(text).toContain('  Certificate name checks may crash.');
    expect(text).toContain('Severity high (CVSS 3.1 7.5, CISA-ADP). Known exploited (CISA KEV since 2024-09-10).');
  });

  it('reads a 1.0 method sent without the A2A-Version header as 1.0', async () => {
    const { envelope } = await call('SendMessage', userMessage('curl'), null);
    expect(envelope.result!.message.parts[1].data.query).toBe('curl');
  });

  it('goes through the edge', async () => {
    const { headers } = await call('SendMessage', userMessage('curl'));
    expect(headers.get('x-request-id')).toBeTruthy();
    expect(headers.get('ratelimit-limit')).toBe('1000000');
    expect(headers.get('cache-control')).toBe('no-store');
  });
});

describe('hostile messages (issue 11)', () => {
  it('one long word sent to /a2a is read up to the query bound and answered at once (item 1)', async () => {
    const started = performance.now();
    const { status, envelope } = await call('SendMessage', userMessage('l'.repeat(64_000)));
    expect(status).toBe(200);
    const data = envelope.result!.message.parts[1].data;
    expect(data.query).toHaveLength(512);
    expect(data.understood).toContain('only the first 512 characters are read');
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('JSON nested 30,000 levels deep is an invalid request, not an internal error', async () => {
    const deep = '['.repeat(30_000) + ']'.repeat(30_000);
    const { envelope } = await send(
      `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}],"metadata":{"a":${deep}}}}}`,
    );
    expect(envelope.error).toMatchObject({ code: -32600, message: 'Invalid Request: JSON nested deeper than 64 levels.' });
  });

  it('the text part is inert for clients that render Markdown or HTML; the data part is unchanged (item 13)', async () => {
    const hostile = buildTestApp({
      catalog: {
        lastVerified: '2025-01-01',
        records: [
          {
            id: 'CVE-2024-0666',
            project: 'x[y](javascript:z)',
            status: 'public',
            url: 'https://www.cve.org/CVERecord?id=CVE-2024-0666',
            summary: 'A <img src=x onerror=alert(1)> and ![i](http://t/x.png) bug.',
          },
        ],
      },
    });
    const server = await hostile;
    try {
      const response = await server.inject({
        method: 'POST',
        url: '/a2a',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: userMessage('CVE-2024-0666') }),
      });
      const [text, data] = response.json().result.message.parts;
      expect(text.text).toContain('A \\<img src=x onerror=alert(1)\\> and !\\[i\\](http://t/x.png) bug.');
      expect(text.text).toContain('x\\[y\\](javascript:z)');
      expect(text.text).not.toMatch(/(^|[^\\])<img/);
      expect(data.data.results[0].snippet).toBe('A <img src=x onerror=alert(1)> and ![i](http://t/x.png) bug.');
    } finally {
      await server.close();
    }
  });
});

describe('A2A errors', () => {
  const unsupported: [method: string, params: unknown, code: number][] = [
    ['SendStreamingMessage', userMessage('curl'), -32004],
    ['SubscribeToTask', { id: 'task-1' }, -32004],
    ['CreateTaskPushNotificationConfig', { taskId: 'task-1', url: 'https://hooks.example/a2a' }, -32003],
    ['GetTaskPushNotificationConfig', { taskId: 'task-1', id: 'config-1' }, -32003],
    ['ListTaskPushNotificationConfigs', { taskId: 'task-1' }, -32003],
    ['DeleteTaskPushNotificationConfig', { taskId: 'task-1', id: 'config-1' }, -32003],
    ['GetTask', { id: 'task-1' }, -32001],
    ['CancelTask', { id: 'task-1' }, -32001],
  ];
  it.each(unsupported)('%s -> %i', async (method, params, code) => {
    const { status, envelope } = await call(method, params);
    expect(status).toBe(200);
    expect(envelope).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code } });
  });

  it('malformed JSON -> -32700', async () => {
    const { envelope } = await send('{"jsonrpc": "2.0", "method": ');
    expect(envelope).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Invalid JSON payload.' } });
  });

  it('no body and no content type (curl -X POST /a2a) -> -32700, not a 500 (issue 24, item 9)', async () => {
    for (const headers of [{}, { 'content-type': 'application/json' }]) {
      const response = await fetch(endpoint, { method: 'POST', headers });
      expect(response.status, JSON.stringify(headers)).toBeLessThan(500);
      expect(await response.json(), JSON.stringify(headers)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Invalid JSON payload.' },
      });
    }
  });

  it('bad params -> -32602', async () => {
    for (const params of [[], {}, { message: { role: 'ROLE_USER', parts: [{ text: 'no id' }] } }]) {
      const { envelope } = await call('SendMessage', params);
      expect(envelope.error?.code, JSON.stringify(params)).toBe(-32602);
    }
  });

  it('an unknown method -> -32601', async () => {
    expect((await call('DeleteAllRecords', {})).envelope.error?.code).toBe(-32601);
  });

  it('an unsupported A2A version -> -32009', async () => {
    expect((await call('SendMessage', userMessage('curl'), '2.0')).envelope.error?.code).toBe(-32009);
  });
});

describe('A2A 0.3 clients', () => {
  it('message/send, without a version header, answers a 0.3 Message', async () => {
    const { envelope } = await call(
      'message/send',
      { message: { kind: 'message', messageId: 'm-1', role: 'user', parts: [{ kind: 'text', text: 'CVE-2025-9999' }] } },
      null,
    );
    expect(envelope.result).toMatchObject({ kind: 'message', role: 'agent' });
    const [text, data] = envelope.result!.parts;
    expect(text).toMatchObject({ kind: 'text', text: expect.stringContaining('CVE-2025-9999') });
    expect(data.kind).toBe('data');
    expect(data.data.results[0].record.id).toBe('CVE-2025-9999');
  });

  it('message/stream and tasks/get get their A2A errors', async () => {
    const stream = await call('message/stream', { message: { kind: 'message', messageId: 'm-2', role: 'user', parts: [] } }, '0.3');
    expect(stream.envelope.error?.code).toBe(-32004);
    expect((await call('tasks/get', { id: 'task-1' }, '0.3')).envelope.error?.code).toBe(-32001);
  });
});
