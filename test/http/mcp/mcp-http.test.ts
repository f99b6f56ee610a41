// /mcp as HTTP: it sits behind the edge like every route, refuses DNS-rebinding Hosts and foreign
// Origins with 403 when bound to loopback (MCP Streamable HTTP, "Security"), and leaves JSON-RPC
// mistakes to the SDK, which answers them in JSON-RPC.
import type { FastifyInstance, InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { ServiceConfig } from '../../../src/config.js';
import { buildTestApp } from '../../support/app.js';

/** A 2025-era initialize, the first request of a legacy client and a complete exchange on its own. */
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
};

/** The `_meta` envelope every 2026-07-28 request carries in place of an initialize handshake. */
const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

function post(app: FastifyInstance, headers: Record<string, string> = {}, payload: string = JSON.stringify(initialize)) {
  const options: InjectOptions = {
    method: 'POST',
    url: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    payload,
  };
  return app.inject(options);
}

const appWith = (config: Partial<ServiceConfig>) => buildTestApp({ config });

describe('/mcp behind the edge', () => {
  it('carries the request id, rate-limit, security and no-store headers', async () => {
    const response = await post(await appWith({}));
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers['ratelimit-limit']).toBe('1000000');
    // A 2025-era answer is an event stream, which keeps the SDK's `no-cache, no-transform`; neither is stored.
    expect(response.headers['cache-control']).toMatch(/^no-(store|cache)\b/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });

  it('counts against the rate limit like every request', async () => {
    const app = await appWith({ rateLimit: { max: 2, windowSeconds: 60 } });
    expect((await post(app)).statusCode).toBe(200);
    expect((await post(app)).statusCode).toBe(200);
    const limited = await post(app);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json().error.code).toBe('rate_limited');
  });

  it('answers GET and DELETE with 405 and Allow: there is no session or stream to open', async () => {
    const app = await appWith({});
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await app.inject({ method, url: '/mcp' });
      expect(response.statusCode, method).toBe(405);
      expect(response.headers.allow).toContain('POST');
      expect(response.json().error.code).toBe('method_not_allowed');
    }
  });
  it('answers malformed JSON with a JSON-RPC parse error, not a REST error', async () => {
    const response = await post(await appWith({}), {}, '{"jsonrpc": "2.0", ');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
  });

  it('answers a modern request naming an unknown protocol version with the versions it serves', async () => {
    const response = await post(
      await appWith({}),
      { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' },
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/list',
        params: {
          _meta: { ...modernMeta, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
        },
      }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().error.data.supported).toContain('2026-07-28');
  });

  it('lets 2026-07-28 clients keep and share the tool list and the discovery answer as long as HTTP caches may', async () => {
    const app = await appWith({ cacheMaxAgeSeconds: 120 });
    for (const method of ['tools/list', 'server/discover']) {
      const response = await post(
        app,
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method },
        JSON.stringify({ jsonrpc: '2.0', id: 3, method, params: { _meta: modernMeta } }),
      );
      expect(response.statusCode, method).toBe(200);
      expect(response.json().result, method).toMatchObject({ resultType: 'complete', ttlMs: 120_000, cacheScope: 'public' });
    }
  });
});

describe('DNS-rebinding protection', () => {
  it('bound to loopback: refuses a Host that is not a loopback name or the service own name, with 403', async () => {
    const app = await appWith({ host: '127.0.0.1' });
    for (const host of ['127.0.0.1:8080', 'localhost:8080', '[::1]:8080', 'cve.test']) {
      expect((await post(app, { host })).statusCode, host).toBe(200);
    }
    const refused = await post(app, { host: 'attacker.example:8080' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    expect(refused.headers['x-request-id']).toBeDefined();
  });

  it('bound to loopback: refuses a page of another origin with 403, admits loopback pages and configured ones', async () => {
    const app = await appWith({ host: '127.0.0.1', mcpAllowedOrigins: ['console.example.org'] });
    expect((await post(app, { origin: 'https://attacker.example' })).statusCode).toBe(403);
    expect((await post(app, { origin: 'null' })).statusCode).toBe(403);
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:6274', 'http://cve.test', 'https://console.example.org']) {
      expect((await post(app, { origin })).statusCode, origin).toBe(200);
    }
    expect((await post(app)).statusCode, 'no Origin: not a browser').toBe(200);
  });

  it('bound publicly: any Host and any page, as for the REST API', async () => {
    const app = await appWith({ host: '0.0.0.0' });
    expect((await post(app, { host: 'cve.example.org', origin: 'https://anywhere.example' })).statusCode).toBe(200);
  });

  it('bound publicly with allowed origins: only those pages and the service own', async () => {
    const app = await appWith({ host: '0.0.0.0', mcpAllowedOrigins: ['console.example.org'] });
    expect((await post(app, { origin: 'https://console.example.org' })).statusCode).toBe(200);
    expect((await post(app, { origin: 'http://cve.test' })).statusCode).toBe(200);
    expect((await post(app, { origin: 'https://attacker.example' })).statusCode).toBe(403);
  });

  it('leaves the other routes alone', async () => {
    const app = await appWith({ host: '127.0.0.1' });
    const response = await app.inject({ url: '/api/v1/health', headers: { host: 'attacker.example', origin: 'https://attacker.example' } });
    expect(response.statusCode).toBe(200);
  });
});

describe('clients of the 2024-11-05 HTTP+SSE transport', () => {
  const hint = 'use Streamable HTTP at http://cve.test/mcp';

  it('are told where to go by the 405 of GET /mcp, an ErrorResponse like every 405', async () => {
    const response = await (await appWith({})).inject({ method: 'GET', url: '/mcp', headers: { accept: 'text/event-stream' } });
    expect(response.statusCode).toBe(405);
    expect(response.json()).toMatchObject({
      error: { code: 'method_not_allowed', message: expect.stringContaining(hint), details: { allow: ['POST', 'OPTIONS'] } },
      requestId: expect.any(String),
    });
  });

  it('get an event stream at GET /sse naming /messages, as that transport begins', async () => {
    const response = await (await appWith({})).inject({ method: 'GET', url: '/sse', headers: { accept: 'text/event-stream' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(response.body).toContain(`: This server speaks MCP Streamable HTTP only`);
    expect(response.body).toMatch(/\nevent: endpoint\ndata: \/messages\n\n$/);
  });

  it('get a JSON-RPC error with the hint for every message POSTed to /messages, matched to its id', async () => {
    const app = await appWith({});
    const response = await app.inject({
      method: 'POST',
      url: '/messages?sessionId=x',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ...initialize, params: { ...initialize.params, protocolVersion: '2024-11-05' } }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: expect.stringContaining(hint) } });
    const garbled = await app.inject({ method: 'POST', url: '/messages', headers: { 'content-type': 'application/json' }, payload: '{' });
    expect(garbled.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
  });
});
