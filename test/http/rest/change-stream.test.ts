// The change stream (GET /api/v1/cve-records/changes/stream) against an in-process server whose served
// snapshot the test swaps: events after a swap, resume with Last-Event-ID (nothing missed, nothing twice),
// filters, the per-address bound, keep-alive comments, a client that never reads, the drain, bad start
// points as 400s.
import { connect, type Socket } from 'node:net';
import { EventSource } from 'eventsource';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceConfig } from '../../../src/config.js';
import { type CatalogFile, type CatalogRecord, CHANGE_STREAM_BUFFER_BYTES, MAX_PROJECT_LENGTH } from '../../../src/contract/index.js';
import { createCursorCodec } from '../../../src/core/cursor.js';
import { createSnapshot } from '../../../src/core/snapshot.js';
import { SnapshotStore } from '../../../src/core/snapshot-store.js';
import { buildServer } from '../../../src/http/server.js';
import { fixtureCatalog, testConfig } from '../../support/app.js';

const PATH = '/api/v1/cve-records/changes/stream';

type ErrorBody = { error: { code: string } };

interface Served {
  app: FastifyInstance;
  store: SnapshotStore;
  baseUrl: string;
  /** Serves the catalog with these records changed or added (each modified at `time`), and with these removals. */
  land(records: readonly CatalogRecord[], removed?: CatalogFile['removed']): void;
}

let served: Served[] = [];
afterEach(async () => {
  await Promise.all(served.map((s) => s.app.close()));
  served = [];
});

async function serve(config: Partial<ServiceConfig> = {}, catalog: CatalogFile = fixtureCatalog): Promise<Served> {
  const store = new SnapshotStore(createSnapshot(catalog));
  const full = testConfig({ compression: false, ...config });
  const app = await buildServer({ config: full, store, cursors: createCursorCodec(full.cursorSecret) });
  const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  let current = catalog;
  const land: Served['land'] = (records, removed) => {
    const ids = new Set(records.map((record) => record.id));
    current = {
      ...current,
      records: [...current.records.filter((record) => !ids.has(record.id)), ...records],
      removed: [...(current.removed ?? []), ...(removed ?? [])],
    };
    store.replace(createSnapshot(current));
  };
  const s = { app, store, baseUrl, land };
  served.push(s);
  return s;
}

const changed = (id: string, project: string, modified: string, extra: Partial<CatalogRecord> = {}): CatalogRecord => ({
  id,
  project,
  status: 'public',
  url: `https://www.cve.org/CVERecord?id=${id}`,
  modified,
  ...extra,
});

interface StreamEvent {
  event: string;
  id: string | undefined;
  data: string;
}

/** Reads a stream's events as they come; `until` says when to stop reading (then the stream is aborted). */
async function readEvents(
  url: string,
  until: (events: StreamEvent[], comments: string[]) => boolean,
  headers: Record<string, string> = {},
): Promise<{ events: StreamEvent[]; comments: string[]; response: Response }> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  expect(response.status).toBe(200);
  const events: StreamEvent[] = [];
  const comments: string[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = response.body!.getReader();
  try {
    while (!until(events, comments)) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        const event: StreamEvent = { event: 'message', id: undefined, data: '' };
        let dispatch = false;
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) comments.push(line);
          else if (line.startsWith('id: ')) event.id = line.slice(4);
          else if (line.startsWith('event: ')) event.event = line.slice(7);
          else if (line.startsWith('data: ')) {
            event.data = line.slice(6);
            dispatch = true;
          }
        }
        if (dispatch) events.push(event);
      }
    }
  } finally {
    abort.abort();
  }
  return { events, comments, response };
}

const changesOf = (events: StreamEvent[]) =>
  events.filter((event) => event.event === 'message').map((event) => JSON.parse(event.data) as { id: string; change: string });
const readyOf = (events: StreamEvent[]) => events.find((event) => event.event === 'ready');

/** Polls a condition: under load a fixed wait would be too short or too long. */
async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A stream opened over a raw connection, as a client that may stop reading: the client's socket and the
 * server's end of the same connection.
 */
async function rawStream(s: Served): Promise<{ client: Socket; server: Socket & { parser?: object | null } }> {
  const sockets: Socket[] = [];
  s.app.server.on('connection', (socket: Socket) => sockets.push(socket));
  const client = connect({ host: '127.0.0.1', port: Number(new URL(s.baseUrl).port) });
  await new Promise((resolve) => client.once('connect', resolve));
  client.write(`GET ${PATH} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n`);
  await until(() => sockets.length === 1);
  return { client, server: sockets[0]! };
}

/** The same 500 records changed again at `hour` (events of about 1.2 KB: 600 KB a swap). */
const landHour = (s: Served, hour: number, project: string) =>
  s.land(
    Array.from({ length: 500 }, (_, i) =>
      changed(`CVE-2027-${10_000 + i}`, project, new Date(Date.UTC(2027, 0, 1, hour, 0, i)).toISOString()),
    ),
  );

describe('GET /api/v1/cve-records/changes/stream', () => {
  it('is in the contract as an event stream of changes', async () => {
    const { app } = await serve();
    const contract = (await app.inject({ url: '/openapi.json' })).json();
    const op = contract.paths[PATH].get;
    expect(op.operationId).toBe('streamPublicCveRecordChanges');
    expect(Object.keys(op.responses['200'].content)).toEqual(['text/event-stream']);
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['since', 'lastEventId', 'project', 'status', 'Last-Event-Id']),
    );
    expect(op.responses['429']).toBeDefined();
  });

  it('reaches an EventSource client: `ready` first, then each change as it lands, its id a feed token', async () => {
    const s = await serve();
    const source = new EventSource(`${s.baseUrl}${PATH}`);
    const received: { id: string; lastEventId: string }[] = [];
    let ready = '';
    source.addEventListener('ready', (event) => {
      ready = event.lastEventId;
    });
    source.onmessage = (event) => received.push({ id: JSON.parse(event.data).id, lastEventId: event.lastEventId });
    try {
      await until(() => ready !== '');
      const landedAt = Date.now();
      s.land([changed('CVE-2026-0001', 'curl', '2026-01-01T00:00:00Z'), changed('CVE-2026-0002', 'zlib', '2026-01-02T00:00:00Z')]);
      await until(() => received.length === 2);
      expect(Date.now() - landedAt).toBeLessThan(5000);
      expect(received.map((r) => r.id)).toEqual(['CVE-2026-0001', 'CVE-2026-0002']);
      // The id is the change feed's token: the feed after it holds exactly what came later.
      const feed = (await (
        await fetch(`${s.baseUrl}/api/v1/cve-records/changes?since=${encodeURIComponent(received[0]!.lastEventId)}`)
      ).json()) as { changes: { id: string }[] };
      expect(feed.changes.map((c) => c.id)).toEqual(['CVE-2026-0002']);
    } finally {
      source.close();
    }
  });

  it('resumes after Last-Event-ID (header or lastEventId) with what it missed, nothing twice, then live', async () => {
    const s = await serve();
    const first = await readEvents(`${s.baseUrl}${PATH}`, (events) => readyOf(events) !== undefined);
    const token = readyOf(first.events)!.id!;
    // Changes land while no stream is open.
    s.land([changed('CVE-2026-0011', 'curl', '2026-02-01T00:00:00Z')]);
    s.land([changed('CVE-2026-0012', 'curl', '2026-02-02T00:00:00Z')], [{ id: 'CVE-2021-44228', modified: '2026-02-03T00:00:00Z' }]);
    const resumed = await readEvents(`${s.baseUrl}${PATH}`, (events) => readyOf(events) !== undefined, { 'last-event-id': token });
    expect(changesOf(resumed.events)).toEqual([
      expect.objectContaining({ id: 'CVE-2026-0011', change: 'updated' }),
      expect.objectContaining({ id: 'CVE-2026-0012', change: 'updated' }),
      expect.objectContaining({ id: 'CVE-2021-44228', change: 'removed' }),
    ]);
    // From the id of the first event: only the two after it; the header wins over `since`.
    const afterFirst = resumed.events[0]!.id!;
    const again = await readEvents(
      `${s.baseUrl}${PATH}?since=2000-01-01T00:00:00Z&lastEventId=${encodeURIComponent(afterFirst)}`,
      (events) => readyOf(events) !== undefined,
    );
    expect(changesOf(again.events).map((c) => c.id)).toEqual(['CVE-2026-0012', 'CVE-2021-44228']);
    const viaHeader = await readEvents(`${s.baseUrl}${PATH}?since=2000-01-01T00:00:00Z`, (events) => readyOf(events) !== undefined, {
      'last-event-id': afterFirst,
    });
    expect(changesOf(viaHeader.events).map((c) => c.id)).toEqual(['CVE-2026-0012', 'CVE-2021-44228']);
    // Live after the catch-up: a change landing while a resumed stream is open arrives once.
    const live = readEvents(`${s.baseUrl}${PATH}`, (events) => changesOf(events).length >= 3, { 'last-event-id': afterFirst });
    // Whether it lands during the catch-up or after it, it arrives once.
    await new Promise((resolve) => setTimeout(resolve, 100));
    s.land([changed('CVE-2026-0013', 'curl', '2026-02-04T00:00:00Z')]);
    expect(changesOf((await live).events).map((c) => c.id)).toEqual(['CVE-2026-0012', 'CVE-2021-44228', 'CVE-2026-0013']);
  });

  it('applies the list filters to records; removals reach every stream', async () => {
    const s = await serve();
    const curl = readEvents(`${s.baseUrl}${PATH}?project=curl`, (events) => changesOf(events).length >= 3);
    const critical = readEvents(
      `${s.baseUrl}${PATH}?project=curl&status=assigned-no-public-record`,
      (events) => changesOf(events).length >= 2,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    s.land([
      changed('CVE-2026-0021', 'zlib', '2026-03-01T00:00:00Z'),
      changed('CVE-2026-0022', 'curl', '2026-03-02T00:00:00Z'),
      changed('CVE-2026-0023', 'curl', '2026-03-03T00:00:00Z', { status: 'assigned-no-public-record', url: null }),
    ]);
    s.land([], [{ id: 'CVE-2025-9999', modified: '2026-03-04T00:00:00Z' }]);
    expect(changesOf((await curl).events).map((c) => c.id)).toEqual(['CVE-2026-0022', 'CVE-2026-0023', 'CVE-2025-9999']);
    expect(changesOf((await critical).events).map((c) => c.id)).toEqual(['CVE-2026-0023', 'CVE-2025-9999']);
    // The same filters from a date: the catch-up filters alike.
    const replay = await readEvents(`${s.baseUrl}${PATH}?project=zlib&since=2026-01-01`, (events) => readyOf(events) !== undefined);
    expect(changesOf(replay.events).map((c) => c.id)).toEqual(['CVE-2026-0021', 'CVE-2025-9999']);
  });

  it('bounds open streams per address: one more is a 429 too_many_streams with Retry-After', async () => {
    const s = await serve({ streams: { perAddress: 2, keepAliveMs: 15_000 } });
    const open = [new AbortController(), new AbortController()];
    const responses = await Promise.all(open.map((abort) => fetch(`${s.baseUrl}${PATH}`, { signal: abort.signal })));
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    const refused = await fetch(`${s.baseUrl}${PATH}`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await refused.json()) as ErrorBody).error.code).toBe('too_many_streams');
    // Closing one frees its place (once the server has seen it close).
    open[0]!.abort();
    let status = 0;
    const retry = new AbortController();
    for (let i = 0; i < 100 && status !== 200; i++) {
      const response = await fetch(`${s.baseUrl}${PATH}`, { signal: retry.signal });
      status = response.status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(200);
    retry.abort();
    open[1]!.abort();
  });

  it('sends keep-alive comments while nothing changes', async () => {
    const s = await serve({ streams: { perAddress: 16, keepAliveMs: 100 } });
    const { comments, events } = await readEvents(`${s.baseUrl}${PATH}`, (_events, comments) => comments.length >= 2);
    expect(comments).toEqual([': keep-alive', ': keep-alive']);
    expect(changesOf(events)).toEqual([]);
  });

  it('answers a forged, altered or oversized Last-Event-ID with a 400, before any stream opens', async () => {
    const s = await serve();
    const { events } = await readEvents(`${s.baseUrl}${PATH}`, (events) => readyOf(events) !== undefined);
    const token = readyOf(events)!.id!;
    const cases: [string, Record<string, string>][] = [
      [PATH, { 'last-event-id': `${token.slice(0, -2)}xx` }],
      [PATH, { 'last-event-id': 'not-a-token' }],
      [PATH, { 'last-event-id': 'x'.repeat(10_000) }],
      [`${PATH}?lastEventId=${'y'.repeat(4000)}`, {}],
      [`${PATH}?since=2025-02-30`, {}],
      [`${PATH}?project=`, {}],
      [`${PATH}?limit=5`, {}],
      // Filters a change cannot be checked against on the record table: refused, never ignored.
      [`${PATH}?version=3.0.7&project=OpenSSL`, {}],
      [`${PATH}?purl=${encodeURIComponent('pkg:pypi/apache-airflow')}`, {}],
      [`${PATH}?cpe=${encodeURIComponent('cpe:2.3:a:openssl:openssl:*:*:*:*:*:*:*:*')}`, {}],
    ];
    for (const [url, headers] of cases) {
      const response = await fetch(`${s.baseUrl}${url}`, { headers });
      expect(response.status, url).toBe(400);
      expect(((await response.json()) as ErrorBody).error.code).toMatch(
        /^(invalid_cursor|invalid_header|invalid_parameter|unknown_parameter)$/,
      );
    }
  });

  it('ends every stream cleanly when the server drains', async () => {
    const s = await serve();
    const response = await fetch(`${s.baseUrl}${PATH}`);
    const body = response.text();
    await new Promise((resolve) => setTimeout(resolve, 200));
    s.app.drain();
    const text = await body;
    expect(text).toMatch(/^retry: 1000\n\n/);
    expect(text).toContain('event: ready');
  });

  it('disconnects a client that never reads once the bound waits for it, and holds no more meanwhile', async () => {
    const project = 'p'.repeat(MAX_PROJECT_LENGTH);
    const s = await serve();
    const { client, server } = await rawStream(s);
    client.pause(); // never reads again
    let most = 0;
    // Each swap changes the same 500 records; the kernel's buffers fill, then the server's, until the bound.
    for (let hour = 1; !server.destroyed && hour < 500; hour++) {
      landHour(s, hour, project);
      await new Promise((resolve) => setTimeout(resolve, 10));
      most = Math.max(most, server.writableLength);
    }
    expect(server.destroyed).toBe(true);
    // At most the bound plus one batch of changes was ever held for it.
    expect(most).toBeLessThan(CHANGE_STREAM_BUFFER_BYTES + 500 * 1300);
    client.destroy();
  }, 60_000);

  it('holds no request parser once open: what the client sends later is dropped, and its end ends the stream', async () => {
    const s = await serve();
    const { client, server } = await rawStream(s);
    let received = '';
    client.setEncoding('utf8').on('data', (chunk: string) => {
      received += chunk;
    });
    await until(() => received.includes('event: ready'));
    // Node's parser (about 10 KB of native memory) goes back to its pool, as for an upgraded connection.
    await until(() => server.parser === null);
    // A second request on the stream's connection is not read as one; the stream goes on.
    client.write('GET /api/v1/cve-records HTTP/1.1\r\nHost: x\r\n\r\n');
    s.land([changed('CVE-2026-0001', 'curl', '2026-01-01T00:00:00Z')]);
    await until(() => received.includes('"CVE-2026-0001"'));
    expect(received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    // The client's end (a half-close) still ends the stream, and with it the connection.
    let closed = false;
    client.once('close', () => {
      closed = true;
    });
    client.end();
    await until(() => closed && server.destroyed);
  });

  it('cuts a stream whose client does not read its end, once the stop has waited for it', async () => {
    const s = await serve({ timeouts: { ...testConfig().timeouts, shutdownMs: 300 } });
    const { client, server } = await rawStream(s);
    client.pause(); // never reads again
    // Changes until the kernel's buffers are full and the server holds some: its end cannot be sent then.
    for (let hour = 1; server.writableLength === 0 && hour < 500; hour++) {
      landHour(s, hour, 'curl');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(server.destroyed).toBe(false);
    s.app.drain();
    await until(() => server.destroyed);
    client.destroy();
  }, 60_000);
});
