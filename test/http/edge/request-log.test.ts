// Issue 29: the request line is built by hand for the service's pino logger, and must be exactly what
// pino's own `info` writes for the same fields; any other logger gets the fields through `info`.
import { Writable } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createCursorCodec } from '../../../src/core/cursor.js';
import { createSnapshot } from '../../../src/core/snapshot.js';
import { SnapshotStore } from '../../../src/core/snapshot-store.js';
import { hundredths, jsonString, requestLogOf } from '../../../src/http/edge/request-log.js';
import { buildServer } from '../../../src/http/server.js';
import { fixtureCatalog, testConfig } from '../../support/app.js';

function sink(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write: (chunk, _encoding, done) => {
      lines.push(String(chunk));
      done();
    },
  });
  return { stream, lines };
}

/** A request and reply with just what the line reads. */
function exchange(url: string, route: string | undefined) {
  const request = { id: 'b3c1d2e4-0000-4000-8000-000000000001', method: 'GET', url, routeOptions: { url: route }, client: '203.0.113.9' };
  const reply = { statusCode: 200, elapsedTime: 1.23456 };
  return { request: request as unknown as FastifyRequest, reply: reply as unknown as FastifyReply };
}

const fieldsOf = (url: string, route: string | null) => ({
  reqId: 'b3c1d2e4-0000-4000-8000-000000000001',
  method: 'GET',
  url,
  route,
  status: 200,
  ms: 1.23,
  client: '203.0.113.9',
});

const flushed = () => new Promise((resolve) => setImmediate(resolve));

describe('the request line', () => {
  it("is byte for byte what pino's info writes for the same fields, escapes and all", async () => {
    for (const [url, route] of [
      ['/api/v1/cve-records/CVE-2024-0001', '/api/v1/cve-records/:id'],
      ['/a?q="quoted"\\back\u0001é€\ud800', '/*'],
      ['/no-such-path', undefined],
    ] as const) {
      const { stream, lines } = sink();
      const logger = pino({ level: 'info', timestamp: () => ',"time":1700000000000' }, stream);
      const { request, reply } = exchange(url, route);
      requestLogOf(logger)(request, reply);
      logger.info(fieldsOf(url, route ?? null), 'request');
      await flushed();
      expect(lines).toHaveLength(2);
      expect(lines[0]).toBe(lines[1]);
      expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, msg: 'request', url, route: route ?? null, status: 200, ms: 1.23 });
    }
  });

  it("writes pino's default time, the milliseconds and the bindings as pino does, at every second and millisecond", async () => {
    const { stream, lines } = sink();
    const logger = pino({ level: 'info' }, stream);
    const log = requestLogOf(logger);
    const now = vi.spyOn(Date, 'now');
    try {
      let i = 0;
      for (const time of [
        1_700_000_000_000, 1_700_000_000_007, 1_700_000_000_999, 1_700_000_001_050, 1_700_000_001_050, 1_700_000_060_100,
      ]) {
        const elapsed = [0, 0.004, 0.005, 1.5, 2, 10.1, 123.456, 99.995][i % 8]!;
        if (i === 3) logger.setBindings({ replica: 'b' });
        now.mockReturnValue(time);
        const { request, reply } = exchange('/api/v1/cve-records/CVE-2024-0001', '/api/v1/cve-records/:id');
        (reply as unknown as { elapsedTime: number }).elapsedTime = elapsed;
        log(request, reply);
        logger.info(
          { ...fieldsOf('/api/v1/cve-records/CVE-2024-0001', '/api/v1/cve-records/:id'), ms: Math.round(elapsed * 100) / 100 },
          'request',
        );
        i++;
      }
    } finally {
      now.mockRestore();
    }
    await flushed();
    expect(lines).toHaveLength(12);
    for (let i = 0; i < lines.length; i += 2) expect(lines[i]).toBe(lines[i + 1]);
    expect(JSON.parse(lines[10]!)).toMatchObject({ time: 1_700_000_060_100, replica: 'b' });
  });

  it('formats hundredths of a millisecond and JSON strings as String and JSON.stringify do', () => {
    for (let n = 0; n < 200_000; n += 7) expect(hundredths(n / 1000)).toBe(String(Math.round((n / 1000) * 100) / 100));
    for (const ms of [0, 0.005, 0.015, 1.005, 21474836.47, 21474836.48, 1e9 + 0.5, -1, Number.NaN]) {
      expect(hundredths(ms)).toBe(String(Math.round(ms * 100) / 100));
    }
    for (const text of [
      '/plain',
      '',
      'a"b',
      'a\\b',
      'tab\tnew\n',
      '\u007f\u0080é€',
      '\ud83d\ude00',
      '\ud800x',
      'x\udfff',
      '\u001f\u0000',
    ]) {
      expect(jsonString(text)).toBe(JSON.stringify(text));
    }
  });

  it('writes nothing below the logger level, and follows a level changed later', async () => {
    const { stream, lines } = sink();
    const logger = pino({ level: 'warn' }, stream);
    const log = requestLogOf(logger);
    const { request, reply } = exchange('/x', '/x');
    log(request, reply);
    logger.level = 'info';
    log(request, reply);
    await flushed();
    expect(lines).toHaveLength(1);
  });

  it('gives a logger that rewrites lines (here a mixin and a formatter) the fields through info, so they apply', async () => {
    const { stream, lines } = sink();
    const logger = pino(
      { level: 'info', mixin: () => ({ service: 'cve' }), formatters: { log: (object) => ({ ...object, formatted: true }) } },
      stream,
    );
    const { request, reply } = exchange('/x', '/x');
    requestLogOf(logger as unknown as FastifyBaseLogger)(request, reply);
    await flushed();
    expect(JSON.parse(lines[0]!)).toMatchObject({ service: 'cve', formatted: true, reqId: request.id, msg: 'request' });
  });

  it('is written once per request by the served server, with its route, status and id', async () => {
    const { stream, lines } = sink();
    const config = testConfig();
    const app = await buildServer(
      { config, store: new SnapshotStore(createSnapshot(fixtureCatalog)), cursors: createCursorCodec(config.cursorSecret) },
      { logger: pino({ level: 'info' }, stream) },
    );
    const response = await app.inject({ url: '/api/v1/cve-records?limit=2' });
    await flushed();
    await app.close();
    const requestLines = lines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request');
    expect(requestLines).toEqual([
      expect.objectContaining({
        reqId: response.headers['x-request-id'],
        method: 'GET',
        url: '/api/v1/cve-records?limit=2',
        route: '/api/v1/cve-records',
        status: 200,
        client: '127.0.0.1',
      }),
    ]);
  });

  it('makes no pino child for an ordinary request; a line written through request.log carries the request id once', async () => {
    const { stream, lines } = sink();
    const config = testConfig();
    const logger = pino({ level: 'info' }, stream);
    // Pino's own child method, wherever the logger's prototypes hold it: every pino child is made by it.
    let holder: object = logger;
    while (!Object.hasOwn(holder, 'child')) holder = Object.getPrototypeOf(holder);
    const made = vi.spyOn(holder as { child: pino.Logger['child'] }, 'child');
    try {
      const app = await buildServer(
        { config, store: new SnapshotStore(createSnapshot(fixtureCatalog)), cursors: createCursorCodec(config.cursorSecret) },
        { logger },
      );
      app.get('/probe', (request) => {
        request.log.warn({ probe: true }, 'probe');
        return {};
      });
      app.get('/fails', () => {
        throw new Error('boom');
      });
      await app.ready();
      const atStart = made.mock.calls.length;
      for (let i = 0; i < 20; i++) await app.inject({ url: '/api/v1/cve-records?limit=1' });
      expect(made.mock.calls.length).toBe(atStart);

      const probe = await app.inject({ url: '/probe' });
      const failed = await app.inject({ url: '/fails' });
      expect(failed.statusCode).toBe(500);
      // One child each for the two requests that wrote a line of their own.
      expect(made.mock.calls.length).toBe(atStart + 2);
      await flushed();
      await app.close();
      const written = (message: string) => lines.filter((line) => JSON.parse(line).msg === message);
      for (const [message, response] of [
        ['probe', probe],
        ['unexpected failure', failed],
      ] as const) {
        const [line, ...more] = written(message);
        expect(more).toEqual([]);
        expect(JSON.parse(line!).reqId).toBe(response.headers['x-request-id']);
        expect(line!.split('"reqId"')).toHaveLength(2);
      }
      expect(written('request')).toHaveLength(22);
      // The override is on Fastify's logger, not on the one the service handed in.
      expect(logger.child({ part: 'x' })).not.toBe(logger);
    } finally {
      made.mockRestore();
    }
  });
});
