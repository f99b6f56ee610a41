// Issue 3, hardening: the headers an API should send, bounded URLs and headers answered with
// documented errors, timeouts that cut off slow clients, and no cookies anywhere.
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCursorCodec } from '../../../src/core/cursor.js';
import { createSnapshot } from '../../../src/core/snapshot.js';
import { SnapshotStore } from '../../../src/core/snapshot-store.js';
import { buildServer } from '../../../src/http/server.js';
import { fixtureCatalog, testConfig } from '../../support/app.js';

const logLines: string[] = [];
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  const config = testConfig({ timeouts: { headersMs: 1000, requestMs: 2000, keepAliveMs: 500, shutdownMs: 1000 } });
  const sink = new Writable({
    write: (chunk, _encoding, done) => {
      logLines.push(String(chunk));
      done();
    },
  });
  app = await buildServer(
    { config, store: new SnapshotStore(createSnapshot(fixtureCatalog)), cursors: createCursorCodec(config.cursorSecret) },
    { logger: pino({ level: 'info' }, sink) },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
});
afterAll(() => app.close());

/** Sends raw bytes and collects everything until the server closes the connection. */
function rawExchange(write: (socket: Socket) => void): Promise<{ text: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1', () => write(socket));
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve({ text, closedAfterMs: Date.now() - started }));
  });
}

function bodyOf(text: string): any {
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
}

describe('response headers', () => {
  it('every response says nosniff, deny framing, no active content, no referrer', async () => {
    for (const url of ['/api/v1/health', '/no-such-path', '/openapi.json']) {
      const { headers } = await app.inject({ url });
      expect(headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
        'referrer-policy': 'no-referrer',
        'cross-origin-resource-policy': 'cross-origin',
      });
    }
  });
});

describe('cookies and credentials', () => {
  it('never sets a cookie, never logs one, and CORS never allows credentials', async () => {
    const secret = 'console-session=s3cr3t-value';
    const responses = [
      await app.inject({ url: '/api/v1/cve-records', headers: { cookie: secret, origin: 'https://app.example' } }),
      await app.inject({
        method: 'OPTIONS',
        url: '/api/v1/cve-records/batch',
        headers: { cookie: secret, origin: 'https://app.example', 'access-control-request-method': 'POST' },
      }),
      await app.inject({ url: '/no-such-path', headers: { cookie: secret } }),
    ];
    for (const response of responses) {
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    }
    expect(responses[1]!.headers['access-control-allow-origin']).toBe('*');
    expect(logLines.some((line) => line.includes('"request"'))).toBe(true);
    expect(logLines.join('')).not.toContain('s3cr3t');
  });
});

describe('size limits', () => {
  it('answers a URL over 8 KiB with 414 uri_too_long', async () => {
    const response = await app.inject({ url: `/api/v1/cve-records?project=${'a'.repeat(9000)}` });
    expect(response.statusCode).toBe(414);
    expect(response.json().error.code).toBe('uri_too_long');
  });

  it('answers headers over 16 KiB with a 431 ErrorResponse, request id and CORS', async () => {
    const { text } = await rawExchange((socket) =>
      socket.write(`GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`),
    );
    expect(text).toMatch(/^HTTP\/1\.1 431 /);
    expect(text).toMatch(/access-control-allow-origin: \*/i);
    const body = bodyOf(text);
    expect(body.error.code).toBe('headers_too_large');
    expect(text).toContain(`X-Request-Id: ${body.requestId}`);
  });

  it('answers a malformed request line with a 400 ErrorResponse', async () => {
    const { text } = await rawExchange((socket) => socket.write('NOT HTTP AT ALL\r\n\r\n'));
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(text).error.code).toBe('bad_request');
  });
});

describe('answers node:http would give bare (issue 11, item 9)', () => {
  it('an HTTP/1.1 request without Host gets a 400 ErrorResponse with a request id and the edge headers', async () => {
    const { text } = await rawExchange((socket) => socket.write('GET /api/v1/health HTTP/1.1\r\nConnection: close\r\n\r\n'));
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    const body = bodyOf(text);
    expect(body.error.code).toBe('bad_request');
    expect(body.error.message).toMatch(/Host/);
    expect(text.toLowerCase()).toContain(`x-request-id: ${body.requestId}`);
    expect(text.toLowerCase()).toContain('access-control-allow-origin: *');
    expect(text.toLowerCase()).toContain('ratelimit-limit:');
  });

  it('an HTTP/1.0 request needs no Host', async () => {
    const { text } = await rawExchange((socket) => socket.write('GET /api/v1/health HTTP/1.0\r\n\r\n'));
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('Expect: 200-ok is ignored, as RFC 9110 allows, rather than answered with a bare 417', async () => {
    const { text } = await rawExchange((socket) =>
      socket.write('GET /api/v1/health HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n'),
    );
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(bodyOf(text).status).toBe('ok');
  });

  it('CONNECT gets a 405 ErrorResponse, not a closed connection', async () => {
    const { text } = await rawExchange((socket) => socket.write('CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n'));
    expect(text).toMatch(/^HTTP\/1\.1 405 /);
    expect(bodyOf(text).error.code).toBe('method_not_allowed');
    expect(text).toContain('Allow: GET, HEAD, POST, OPTIONS');
  });
});

describe('slow clients', () => {
  it('cuts off a client that trickles its headers (slow loris) with 408', async () => {
    const { text, closedAfterMs } = await rawExchange((socket) => {
      socket.write('GET /api/v1/health HTTP/1.1\r\nHost: x\r\n');
      const drip = setInterval(() => (socket.writable ? socket.write('X-Slow: 1\r\n') : clearInterval(drip)), 200);
      socket.on('close', () => clearInterval(drip));
    });
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(text).error.code).toBe('request_timeout');
    expect(closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(closedAfterMs).toBeLessThan(4000);
  });

  it('closes a connection that sends nothing', async () => {
    const { closedAfterMs } = await rawExchange(() => {});
    expect(closedAfterMs).toBeLessThan(4000);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const { text, closedAfterMs } = await rawExchange((socket) => socket.write('GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(400);
    expect(closedAfterMs).toBeLessThan(3000);
  });
});
