// Issue 3, operations: SIGTERM finishes requests in flight; --workers N serves one port from N
// processes that share the cursor secret and, through Redis, one rate budget.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startServer, type Running } from './support/cli.js';

const PIPELINED = 500;

/**
 * Sends PIPELINED requests on one connection and reads nothing until told to: the server answers them
 * one after another and, once the socket buffers are full, has requests it has not answered yet.
 */
function slowReader(port: number, path: string): { sent: Promise<void>; answering: () => Promise<void>; responses: () => Promise<string[]> } {
  const socket = connect(port, '127.0.0.1');
  socket.pause();
  const request = `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;
  const sent = new Promise<void>((resolve) => socket.once('connect', () => socket.write(request.repeat(PIPELINED), () => resolve())));
  const responses = () =>
    new Promise<string[]>((resolve, reject) => {
      const bodies: string[] = [];
      let buffer = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        buffer = Buffer.concat([buffer, chunk]);
        for (;;) {
          const headEnd = buffer.indexOf('\r\n\r\n');
          if (headEnd < 0) return;
          const head = buffer.subarray(0, headEnd).toString();
          const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? NaN);
          if (buffer.length < headEnd + 4 + length) return;
          expect(head).toMatch(/^HTTP\/1\.1 200 /);
          bodies.push(buffer.subarray(headEnd + 4, headEnd + 4 + length).toString());
          buffer = buffer.subarray(headEnd + 4 + length);
          if (bodies.length === PIPELINED) {
            socket.destroy();
            resolve(bodies);
          }
        }
      });
      socket.on('error', reject);
      socket.on('close', () => reject(new Error(`connection closed after ${bodies.length} of ${PIPELINED} answers`)));
      socket.resume();
    });
  /** Resolves once the server has begun answering: bytes wait in the paused socket. */
  const answering = async () => {
    // A paused socket does not read at all; read(0) pulls one buffer's worth and stops again.
    while (socket.readableLength === 0) {
      socket.read(0);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { sent, answering, responses };
}

describe('graceful stop', () => {
  it('SIGTERM with requests in flight loses none, then exits 0', async () => {
    // A long deadline: on a loaded machine, reading 2 x 500 answers can take a while, and the test is about
    // the drain, not the deadline.
    const server = await startServer(['--rate-limit-max', '0', '--shutdown-timeout', '120']);
    const port = Number(new URL(server.baseUrl).port);
    const readers = Array.from({ length: 2 }, () => slowReader(port, '/api/v1/cve-records?limit=100'));
    await Promise.all(readers.map((r) => r.sent));
    // Only requests the server has taken are in flight; one still in the accept queue when the port
    // closes is refused by the kernel, which no server can prevent.
    await Promise.all(readers.map((r) => r.answering()));
    const exited = server.stop();
    await new Promise((resolve) => setTimeout(resolve, 500)); // the stop has begun while answers wait
    const answers = (await Promise.all(readers.map((r) => r.responses()))).flat();
    expect(answers).toHaveLength(2 * PIPELINED);
    for (const body of answers) expect(JSON.parse(body).records).toHaveLength(100);
    expect(await exited).toBe(0);
    expect(server.output()).toContain('stopping: finishing requests in flight');
  }, 120_000);
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
    const first = await (await request(`${server.baseUrl}/api/v1/cve-records?limit=2`)).body.json() as { pagination: { nextCursor: string } };
    for (let i = 0; i < 6; i++) {
      // New connections are spread over the workers; every one must accept the cursor.
      const next = await request(`${server.baseUrl}/api/v1/cve-records?limit=2&cursor=${first.pagination.nextCursor}`, { reset: true });
      expect(next.statusCode).toBe(200);
      await next.body.dump();
    }
    expect(await server.stop()).toBe(0);
  }, 90_000);

  it('with Redis, two workers hand out exactly the limit for one address', async () => {
    const server = await startServer(['--workers', '2', '--redis-url', process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', '--rate-limit-max', '30', '--rate-limit-window', '3600', '--trust-proxy', '127.0.0.1']);
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
