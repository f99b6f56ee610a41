// Issue 29: the caching step and the request line learn the route a request reached (its URL pattern and
// caching policy) from the route itself, not from Fastify's `request.routeOptions` getter, which builds an
// object at every read; requests no handler reached still get the getter's answer.
import { Writable } from 'node:stream';
import type { FastifyInstance, FastifyRequest, InjectOptions } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCursorCodec } from '../../../src/core/cursor.js';
import { createSnapshot } from '../../../src/core/snapshot.js';
import { SnapshotStore } from '../../../src/core/snapshot-store.js';
import { buildServer } from '../../../src/http/server.js';
import { fixtureCatalog, testConfig } from '../../support/app.js';

let app: FastifyInstance;
const lines: string[] = [];
/** Reads of Fastify's routeOptions getter, and the route URL it answered for each request. */
let reads = 0;
const answered = new Map<string, string | null>();

beforeAll(async () => {
  const config = testConfig({ cacheMaxAgeSeconds: 120 });
  const stream = new Writable({
    write: (chunk, _encoding, done) => {
      lines.push(String(chunk));
      done();
    },
  });
  app = await buildServer(
    { config, store: new SnapshotStore(createSnapshot(fixtureCatalog)), cursors: createCursorCodec(config.cursorSecret) },
    { logger: pino({ level: 'info' }, stream) },
  );
  // The getter lives on a prototype of every request (found from one request); a counting one is put in
  // front of it, on the request's own prototype.
  let seen: FastifyRequest | undefined;
  app.addHook('onResponse', (request, _reply, done) => {
    seen ??= request;
    answered.set(request.id, request.routeOptions.url ?? null);
    done();
  });
  await app.inject({ url: '/api/v1/health' });
  let owner: object | null = seen!;
  while (owner && !Object.hasOwn(owner, 'routeOptions')) owner = Object.getPrototypeOf(owner);
  const getter = Object.getOwnPropertyDescriptor(owner!, 'routeOptions')!.get!;
  Object.defineProperty(Object.getPrototypeOf(seen), 'routeOptions', {
    get() {
      reads++;
      return getter.call(this);
    },
  });
});
afterAll(() => app.close());

const flushed = () => new Promise((resolve) => setImmediate(resolve));

/** The request's response, its request line, and how many times the edge read the getter for it (the test's own read excluded). */
async function send(options: InjectOptions) {
  lines.length = 0;
  const before = reads;
  const response = await app.inject(options);
  await flushed();
  const edgeReads = reads - before - 1;
  const line = lines.map((text) => JSON.parse(text)).find((fields) => fields.msg === 'request');
  return { response, line, edgeReads, fastifyRoute: answered.get(String(response.headers['x-request-id'])) };
}

describe('the route, as the edge sees it', () => {
  it.each([
    ['a record', { url: '/api/v1/cve-records/CVE-2024-1234' }, '/api/v1/cve-records/:recordId'],
    ['a list page', { url: '/api/v1/cve-records?limit=2' }, '/api/v1/cve-records'],
    ['a record by HEAD', { method: 'HEAD', url: '/api/v1/cve-records/CVE-2024-1234' }, '/api/v1/cve-records/:recordId'],
  ] as const)(
    'of %s is handed over by its handler: the getter is not read, the line and the caching are as before',
    async (_what, options, route) => {
      const { response, line, edgeReads } = await send(options as InjectOptions);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=120');
      expect(line).toMatchObject({ route, status: 200 });
      expect(edgeReads).toBe(0);

      const again = await send({ ...(options as InjectOptions), headers: { 'if-none-match': String(response.headers.etag) } });
      expect(again.response.statusCode).toBe(304);
      expect(again.response.headers['cache-control']).toBe('public, max-age=120');
      expect(again.line).toMatchObject({ route, status: 304 });
      expect(again.edgeReads).toBe(0);
    },
  );

  it.each([
    ['no route (404)', { url: '/no-such-path' }, 404],
    ['an invalid query (400)', { url: '/api/v1/cve-records?limit=0' }, 400],
    ['a method the path lacks (405)', { method: 'DELETE', url: '/api/v1/cve-records' }, 405],
    [
      'a preflight',
      {
        method: 'OPTIONS',
        url: '/api/v1/cve-records',
        headers: { origin: 'https://example.test', 'access-control-request-method': 'GET' },
      },
      204,
    ],
  ] as const)('of a request no handler reached, %s, is what Fastify says', async (_what, options, status) => {
    const { response, line, fastifyRoute } = await send(options as InjectOptions);
    expect(response.statusCode).toBe(status);
    expect(line).toMatchObject({ route: fastifyRoute ?? null, status });
    if (status !== 204) expect(response.headers['cache-control']).toBe('no-store');
  });
});
