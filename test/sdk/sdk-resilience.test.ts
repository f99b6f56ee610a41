// Issue 7, the SDK when things go wrong: 429s waited out (bounded), aborts, timeouts, unreachable
// services and streams cancelled mid-way.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { CveRecordsClient, CveRecordsError } from '@public-cve-records/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../support/app.js';

/** A client whose requests are recorded as the status each one got. */
function countingClient(baseUrl: string, options: Partial<ConstructorParameters<typeof CveRecordsClient>[0]> = {}) {
  const statuses: number[] = [];
  const client = new CveRecordsClient({
    baseUrl,
    ...options,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    },
  });
  return { client, statuses };
}

describe('SDK: 429 (rate limit of 2 requests per 2 seconds)', () => {
  const limited = async () => {
    const app = await buildTestApp({ config: { rateLimit: { max: 2, windowSeconds: 2 } } });
    return { app, baseUrl: await app.listen({ host: '127.0.0.1', port: 0 }) };
  };

  it('waits Retry-After and retries, then answers', async () => {
    const { app, baseUrl } = await limited();
    const { client, statuses } = countingClient(baseUrl);
    const started = Date.now();
    for (let i = 0; i < 3; i++) expect((await client.health()).status).toBe('ok');
    expect(statuses).toEqual([200, 200, 429, 200]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    await app.close();
  });

  it('gives up after maxRetries with the 429 as a typed error carrying Retry-After', async () => {
    const { app, baseUrl } = await limited();
    const { client, statuses } = countingClient(baseUrl, { maxRetries: 0 });
    await client.health();
    await client.health();
    const error = (await client.health().catch((e: unknown) => e)) as CveRecordsError;
    expect(error).toBeInstanceOf(CveRecordsError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: 1, requestId: expect.any(String) });
    expect(statuses).toEqual([200, 200, 429]);
    await app.close();
  });

  it('does not wait when Retry-After is longer than maxRetryDelayMs', async () => {
    const { app, baseUrl } = await limited();
    const { client, statuses } = countingClient(baseUrl, { maxRetryDelayMs: 500 });
    await client.health();
    await client.health();
    const started = Date.now();
    await expect(client.health()).rejects.toMatchObject({ status: 429 });
    expect(Date.now() - started).toBeLessThan(500);
    expect(statuses).toEqual([200, 200, 429]);
    await app.close();
  });

  it('stops waiting when the signal aborts, rejecting with its reason', async () => {
    const { app, baseUrl } = await limited();
    const { client, statuses } = countingClient(baseUrl);
    await client.health();
    await client.health();
    const started = Date.now();
    const call = client.health({ signal: AbortSignal.timeout(100) });
    await expect(call).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(800);
    expect(statuses).toEqual([200, 200, 429]);
    await app.close();
  });
});

describe('SDK: abort and timeouts', () => {
  let stub: Server;
  let stubUrl: string;
  const closed: string[] = [];

  // A service that never answers /api/v1/health and opens the /ask stream, sends `begin-nlweb-response` and then nothing.
  beforeAll(async () => {
    stub = createServer((request: IncomingMessage, response: ServerResponse) => {
      request.socket.once('close', () => closed.push(request.url ?? ''));
      if (request.url?.startsWith('/ask')) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('data: {"message_type":"begin-nlweb-response","query_id":"q","query":"x"}\n\n');
      }
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    stubUrl = `http://127.0.0.1:${(stub.address() as { port: number }).port}`;
  });
  afterAll(() => {
    stub.closeAllConnections();
    stub.close();
  });

  it('rejects at once with the reason of a signal already aborted, sending nothing', async () => {
    const { client, statuses } = countingClient(stubUrl);
    const reason = new Error('not needed any more');
    await expect(client.records.get('CVE-2024-3094', { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(statuses).toEqual([]);
  });

  it('rejects with the signal reason when aborted in flight', async () => {
    const client = new CveRecordsClient({ baseUrl: stubUrl });
    const controller = new AbortController();
    const call = client.health({ signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('times out with a typed error (status 0, code timeout), per client or per call', async () => {
    const client = new CveRecordsClient({ baseUrl: stubUrl, timeoutMs: 150 });
    const started = Date.now();
    const error = (await client.health().catch((e: unknown) => e)) as CveRecordsError;
    expect(error).toBeInstanceOf(CveRecordsError);
    expect(error).toMatchObject({ status: 0, code: 'timeout', requestId: undefined });
    expect(error.message).toContain('150 ms');
    expect(Date.now() - started).toBeLessThan(1000);
    await expect(client.capabilities({ timeoutMs: 50 })).rejects.toMatchObject({
      code: 'timeout',
      message: expect.stringContaining('50 ms'),
    });
  });

  it('reports an unreachable service as network_error', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const client = new CveRecordsClient({ baseUrl: `http://127.0.0.1:${closedPort}` });
    await expect(client.health()).rejects.toMatchObject({ name: 'CveRecordsError', status: 0, code: 'network_error' });
  });

  it('sends a request once more when its kept-alive connection was reset before any answer, and only once', async () => {
    // The first request on each connection is answered and the connection kept alive; the next request
    // on it is answered with a reset, as when the service closes an idle connection the client reuses.
    // `resetEvery` resets every request instead: then the call fails after exactly two sends.
    const relay = async (resetEvery: boolean) => {
      let connections = 0;
      const server = createNetServer((socket) => {
        connections++;
        let requests = 0;
        socket.on('data', (chunk) => {
          if (!chunk.includes('\r\n\r\n')) return;
          requests++;
          if (resetEvery || requests > 1) return socket.resetAndDestroy();
          const body = '{"status":"ok"}';
          socket.write(
            `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nKeep-Alive: timeout=60\r\n\r\n${body}`,
          );
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      return { baseUrl: `http://127.0.0.1:${port}`, connections: () => connections, close: () => server.close() };
    };
    /** A client on `baseUrl` and the requests it sent, answered or not. */
    const sendingClient = (baseUrl: string) => {
      const sends: string[] = [];
      const client = new CveRecordsClient({
        baseUrl,
        fetch: (input, init) => {
          sends.push(String(input));
          return fetch(input, init);
        },
      });
      return { client, sends };
    };
    const reused = await relay(false);
    const { client, sends } = sendingClient(reused.baseUrl);
    expect(await client.health()).toEqual({ status: 'ok' });
    // An idle gap, as between a script's calls: the connection goes back to the pool and is reused.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await client.health()).toEqual({ status: 'ok' });
    expect(sends).toHaveLength(3);
    expect(reused.connections()).toBe(2);
    reused.close();

    const broken = await relay(true);
    const { client: failing, sends: counted } = sendingClient(broken.baseUrl);
    await expect(failing.health()).rejects.toMatchObject({ status: 0, code: 'network_error' });
    expect(counted).toHaveLength(2);
    broken.close();
  });

  it('searchStream: an open stream is not cut by the timeout, and aborting it closes the connection', async () => {
    const client = new CveRecordsClient({ baseUrl: stubUrl, timeoutMs: 100 });
    const controller = new AbortController();
    const events: string[] = [];
    const reading = (async () => {
      for await (const message of client.searchStream('x', { signal: controller.signal })) events.push(message.message_type);
    })();
    await expect.poll(() => events).toEqual(['begin-nlweb-response']);
    // Three timeouts later the stream is still open: the timeout covers the wait for the answer, not its length.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events).toEqual(['begin-nlweb-response']);
    controller.abort();
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(() => closed.filter((url) => url.startsWith('/ask')).length).toBe(1);
  });
});
