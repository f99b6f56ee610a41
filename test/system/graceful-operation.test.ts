// Issue 3, operations: SIGTERM finishes requests in flight; --workers N serves one port from N
// processes that share the cursor secret and, through Redis, one rate budget. Issue 11: a stop under
// keep-alive load resets no connection.

import { Client, type errors, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { type Running, startServer } from '../support/cli.js';
import { testRedisUrl } from '../support/services.js';

interface Outcome {
  answered: number;
  /** Answers that told the client to close the connection (sent once the stop began). */
  closing: number;
  failures: string[];
}

/**
 * One keep-alive connection, as real clients use them: one request at a time, optionally with idle
 * gaps. It stops once an answer says `Connection: close`, as a client that moves on would, so every
 * request it sends goes over a connection the server is still serving.
 */
async function keepAliveClient(origin: string, gapMs: () => number, stopped: () => boolean, outcomes: Outcome[]): Promise<Outcome> {
  const client = new Client(origin, { pipelining: 1, keepAliveTimeout: 60_000 });
  const outcome: Outcome = { answered: 0, closing: 0, failures: [] };
  outcomes.push(outcome);
  try {
    while (!stopped()) {
      try {
        const response = await client.request({ path: '/api/v1/cve-records?limit=100', method: 'GET' });
        const body = (await response.body.json()) as { records: unknown[] };
        if (response.statusCode !== 200 || body.records.length !== 100) outcome.failures.push(`status ${response.statusCode}`);
        outcome.answered++;
        if (response.headers.connection === 'close') {
          outcome.closing++;
          return outcome;
        }
      } catch (error) {
        outcome.failures.push(`${(error as errors.UndiciError).code ?? ''} ${(error as Error).message}`);
        return outcome;
      }
      const gap = gapMs();
      if (gap > 0) await new Promise((resolve) => setTimeout(resolve, gap));
    }
    return outcome;
  } finally {
    await client.destroy();
  }
}

describe('graceful stop', () => {
  it('SIGTERM under keep-alive load: 0 resets, every in-flight request answered, then exit 0', async () => {
    // A short deadline: a server that kept connections open after the signal would have them cut (reset)
    // at it, which is what this test must catch.
    const server = await startServer(['--rate-limit-max', '0', '--shutdown-timeout', '4']);
    let stop = false;
    const outcomes: Outcome[] = [];
    const clients = [
      ...Array.from({ length: 24 }, () =>
        keepAliveClient(
          server.baseUrl,
          () => 0,
          () => stop,
          outcomes,
        ),
      ),
      ...Array.from({ length: 8 }, () =>
        keepAliveClient(
          server.baseUrl,
          () => 50 + Math.random() * 300,
          () => stop,
          outcomes,
        ),
      ),
    ];
    // Every connection established and answered: a connection still in the kernel's accept queue when
    // the listening socket closes is reset by the kernel, which no server can prevent (docs/OPERATIONS.md).
    while (outcomes.length < clients.length || outcomes.some((o) => o.answered === 0))
      await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 500)); // load on every connection
    const exited = server.stop();
    await Promise.race([
      Promise.all(clients),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('clients still running 20 s after SIGTERM')), 20_000)),
    ]).finally(() => (stop = true));
    expect(outcomes.flatMap((o) => o.failures)).toEqual([]);
    // Every connection was told to close by an answer, none was cut under it.
    expect(outcomes.every((o) => o.closing === 1)).toBe(true);
    expect(outcomes.reduce((n, o) => n + o.answered, 0)).toBeGreaterThan(32);
    expect(await exited).toBe(0);
    expect(server.output()).toContain('stopping: finishing requests in flight');
    expect(server.output()).not.toContain('deadline reached');
  }, 60_000);
});

/** How many workers have said they listen, waiting up to 30 s for `expected` (each loads the catalog itself). */
async function workersListening(server: Running, expected: number): Promise<number> {
  const listening = () => new Set([...server.output().matchAll(/"pid":(\d+)[^\n]*Server listening/g)].map((m) => m[1])).size;
  const deadline = Date.now() + 30_000;
  while (listening() < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return listening();
}

describe('--workers', () => {
  it('serves one port from two processes that honour each other’s cursors and stop together', async () => {
    const server = await startServer(['--workers', '2', '--rate-limit-max', '1000']);
    expect(await workersListening(server, 2)).toBe(2);
    const first = (await (await request(`${server.baseUrl}/api/v1/cve-records?limit=2`)).body.json()) as {
      pagination: { nextCursor: string };
    };
    for (let i = 0; i < 6; i++) {
      // New connections are spread over the workers; every one must accept the cursor.
      const next = await request(`${server.baseUrl}/api/v1/cve-records?limit=2&cursor=${first.pagination.nextCursor}`, { reset: true });
      expect(next.statusCode).toBe(200);
      await next.body.dump();
    }
    expect(await server.stop()).toBe(0);
  }, 90_000);

  it('with Redis, two workers hand out exactly the limit for one address', async () => {
    const server = await startServer([
      '--workers',
      '2',
      '--redis-url',
      testRedisUrl(),
      '--rate-limit-max',
      '30',
      '--rate-limit-window',
      '3600',
      '--trust-proxy',
      '127.0.0.1',
    ]);
    expect(await workersListening(server, 2)).toBe(2);
    const client = `198.19.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;
    const codes = [];
    for (let i = 0; i < 40; i++) {
      const response = await request(`${server.baseUrl}/api/v1/health`, { headers: { 'x-forwarded-for': client }, reset: true });
      codes.push(response.statusCode);
      await response.body.dump();
    }
    expect(codes.filter((code) => code === 200)).toHaveLength(30);
    expect(codes.filter((code) => code === 429)).toHaveLength(10);
    expect(await server.stop()).toBe(0);
  }, 90_000);
});
