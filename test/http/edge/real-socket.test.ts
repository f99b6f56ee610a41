// The same API over a real TCP socket with undici: what inject cannot show (framing, keep-alive, raw URLs).
import type { FastifyInstance } from 'fastify';
import { Client } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeaderBlockResponse } from '../../../src/http/edge/header-block.js';
import { buildTestApp } from '../../support/app.js';

let app: FastifyInstance;
let client: Client;
beforeAll(async () => {
  app = await buildTestApp();
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  client = new Client(`http://127.0.0.1:${port}`);
});
afterAll(async () => {
  await client.close();
  await app.close();
});

describe('over a real socket', () => {
  it('pages the list over one keep-alive connection', async () => {
    let path = '/api/v1/cve-records?limit=3';
    const ids: string[] = [];
    for (;;) {
      const response = await client.request({ method: 'GET', path });
      expect(response.statusCode).toBe(200);
      const body = (await response.body.json()) as { records: { id: string }[]; pagination: { nextCursor: string | null } };
      ids.push(...body.records.map((r) => r.id));
      if (!body.pagination.nextCursor) break;
      path = `/api/v1/cve-records?limit=3&cursor=${encodeURIComponent(body.pagination.nextCursor)}`;
    }
    expect(ids).toHaveLength(8);
  });

  it('answers raw dot segments and undecodable URLs with a JSON 404 carrying the edge headers', async () => {
    for (const path of ['/../api/v1/health', '/api/v1/cve-records/%ZZ', '/%']) {
      const response = await client.request({ method: 'GET', path });
      const body = (await response.body.json()) as { error: { code: string }; requestId: string };
      expect(response.statusCode, path).toBe(404);
      expect(body.error.code).toBe('not_found');
      expect(response.headers['x-request-id']).toBe(body.requestId);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('posts a batch and gets the JSON answer', async () => {
    const response = await client.request({
      method: 'POST',
      path: '/api/v1/cve-records/batch',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'retry-1' },
      body: JSON.stringify({ recordIds: ['CVE-2025-9999', 'CVE-2000-0001'] }),
    });
    expect(response.statusCode).toBe(200);
    expect(await response.body.json()).toMatchObject({ missing: ['CVE-2000-0001'] });
  });

  it('streams /ask as Server-Sent Events when asked by Accept', async () => {
    const response = await client.request({ method: 'GET', path: '/ask?query=CVE-2025-9999', headers: { accept: 'text/event-stream' } });
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    const text = await response.body.text();
    expect(text).toMatch(/^data: \{"message_type":"begin-nlweb-response"/);
    expect(text).toContain('data: {"message_type":"result","query_id":');
    expect(text).toContain('"content":[{"url":"https://www.cve.org/CVERecord?id=CVE-2025-9999"');
    expect(text).toMatch(/data: \{"message_type":"complete".*\}\n\n$/);
    expect(text).not.toMatch(/^event:/m);
  });

  it.each([
    ['a record', '/api/v1/cve-records/CVE-2025-9999', {}],
    ['a record not modified (304)', '/api/v1/cve-records/CVE-2025-9999', { 'if-none-match': 'etag' }],
    ['an error (404)', '/api/v1/cve-records/CVE-1999-0001', {}],
    // A page's own Content-Security-Policy replaces the API's line of the block.
    ['a web page', '/', {}],
  ] as const)(
    'writes the edge headers once each, as inject sees them (the block of lines, header-block.ts): %s',
    async (_what, path, asked) => {
      const etag = (await app.inject({ method: 'GET', url: path })).headers.etag;
      const headers = 'if-none-match' in asked ? { 'if-none-match': String(etag) } : {};
      const overSocket = await client.request({ method: 'GET', path, headers });
      await overSocket.body.dump();
      const injected = await app.inject({ method: 'GET', url: path, headers });
      expect(overSocket.statusCode).toBe(injected.statusCode);
      const perRequest = new Set([
        'x-request-id',
        'date',
        'connection',
        'keep-alive',
        'ratelimit-remaining',
        'ratelimit-reset',
        'ratelimit',
      ]);
      const wire = overSocket.headers as Record<string, string | string[]>;
      for (const [name, value] of Object.entries(wire)) expect(typeof value, `${name} written once`).toBe('string');
      // Node writes keep-alive itself, on the wire only.
      expect(
        Object.keys(wire)
          .filter((name) => name !== 'keep-alive')
          .sort(),
      ).toEqual(Object.keys(injected.headers).sort());
      for (const [name, value] of Object.entries(injected.headers)) if (!perRequest.has(name)) expect(wire[name], name).toBe(value);
      expect(wire['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(wire['x-frame-options']).toBe('DENY');
      expect(wire['cache-control']).toBeDefined();
      expect(wire['content-security-policy']).toBeDefined();
      expect(wire.ratelimit).toMatch(/^"default";r=\d+;t=\d+$/);
    },
  );

  it('hands Node, which checks every header it is handed, only what is not a line of the block (a record: its tag, type and length)', async () => {
    const handed: string[][] = [];
    const storeHeader = HeaderBlockResponse.prototype._storeHeader;
    HeaderBlockResponse.prototype._storeHeader = function (this: HeaderBlockResponse, firstLine: string, headers: unknown) {
      handed.push(Object.keys(headers ?? {}).sort());
      storeHeader.call(this, firstLine, headers);
    };
    try {
      await (await client.request({ method: 'GET', path: '/api/v1/cve-records/CVE-2025-9999' })).body.dump();
    } finally {
      HeaderBlockResponse.prototype._storeHeader = storeHeader;
    }
    expect(handed).toEqual([['content-length', 'content-type', 'etag']]);
  });

  it('writes the edge headers on a stream, whose head is written by hand', async () => {
    const stream = await client.request({ method: 'GET', path: '/ask?query=CVE-2025-9999', headers: { accept: 'text/event-stream' } });
    await stream.body.dump();
    expect(stream.headers['access-control-allow-origin']).toBe('*');
    expect(stream.headers['ratelimit-limit']).toBe('1000000');
    expect(stream.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(stream.headers['cache-control']).toBe('no-store');
  });
});
