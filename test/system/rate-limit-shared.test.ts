// Issue 3, rate limit across sockets, processes and a Redis outage: separate budgets for two local
// addresses over real sockets; two server processes on the real Redis sharing exactly one budget;
// Redis killed and restarted while requests keep succeeding.
import { Redis } from 'ioredis';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { type Running, startServer } from '../support/cli.js';
import { testRedisUrl } from '../support/services.js';
import { freePort, startRedis, type ThrowawayService } from '../support/throwaway-services.js';

const SHARED_REDIS = testRedisUrl();
const running: Running[] = [];
afterAll(async () => {
  await Promise.all(running.map((server) => server.stop()));
});

async function start(args: string[]): Promise<Running> {
  const server = await startServer(args);
  running.push(server);
  return server;
}

/** A client address no earlier run has used, so counters left in the shared Redis cannot interfere. */
function freshClientAddress(): string {
  return `198.18.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;
}

async function status(url: string, headers: Record<string, string> = {}, dispatcher?: Agent): Promise<number> {
  const response = await request(url, { headers, ...(dispatcher ? { dispatcher } : {}) });
  await response.body.dump();
  return response.statusCode;
}

describe('budgets per connecting address over real sockets', () => {
  it('127.0.0.1 and 127.0.0.2 each have their own budget', async () => {
    const server = await start(['--rate-limit-max', '3']);
    const from = (localAddress: string) => new Agent({ localAddress });
    const first = from('127.0.0.1');
    const second = from('127.0.0.2');
    const url = `${server.baseUrl}/api/v1/health`;
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push(await status(url, {}, first));
    expect(codes).toEqual([200, 200, 200, 429]);
    expect(await status(url, {}, second)).toBe(200);
    await Promise.all([first.close(), second.close()]);
  });
});

describe('two processes on one Redis', () => {
  it('hand out exactly 120 between them for one address', async () => {
    const args = ['--redis-url', SHARED_REDIS, '--trust-proxy', '127.0.0.1', '--rate-limit-window', '3600'];
    const [a, b] = await Promise.all([start(args), start(args)]);
    const client = freshClientAddress();
    let allowed = 0;
    let refused = 0;
    for (let i = 0; i < 140; i++) {
      const server = i % 2 ? a! : b!;
      const code = await status(`${server.baseUrl}/api/v1/cve-records/CVE-2024-3094`, { 'x-forwarded-for': client });
      if (code === 429) refused++;
      else allowed++;
    }
    expect(allowed).toBe(120);
    expect(refused).toBe(20);
  });
});

describe('Redis outage', () => {
  let redis: ThrowawayService | undefined;
  afterAll(() => redis?.stop()); // also when the test fails half way

  it('fails no request while Redis is down, logs it once, and shares the budget again when it is back', async () => {
    const port = await freePort();
    redis = await startRedis(port);
    const server = await start([
      '--redis-url',
      redis.url,
      '--rate-limit-max',
      '1000',
      '--rate-limit-window',
      '3600',
      '--trust-proxy',
      '127.0.0.1',
    ]);
    const client = freshClientAddress();
    const codes: number[] = [];
    const hit = async (times: number) => {
      for (let i = 0; i < times; i++) codes.push(await status(`${server.baseUrl}/api/v1/health`, { 'x-forwarded-for': client }));
    };
    const counters = new Redis(port, '127.0.0.1', { lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: null });
    counters.on('error', () => {}); // it loses Redis too while Redis is down

    await hit(20);
    await counters.connect();
    expect(await counters.keys('cve-records:ratelimit:*')).toHaveLength(1);

    const killedAt = Date.now();
    const killed = redis.child;
    killed.kill('SIGKILL');
    await new Promise((resolve) => killed.once('exit', resolve));
    await redis.stop(); // removes its folder
    await hit(50);
    const restartedAt = Date.now();
    redis = await startRedis(port); // an empty Redis: the old counters are gone with the process
    // Keep asking until the service counts in Redis again (its reconnect backoff is at most 2 s).
    const deadline = Date.now() + 20_000;
    do {
      await hit(5);
      await new Promise((resolve) => setTimeout(resolve, 200));
    } while ((await counters.keys('cve-records:ratelimit:*')).length === 0 && Date.now() < deadline);

    expect(codes.length).toBeGreaterThanOrEqual(75);
    expect(codes.every((code) => code === 200)).toBe(true);
    expect(await counters.keys('cve-records:ratelimit:*')).toHaveLength(1); // counting in Redis again
    while (!server.output().includes('Redis is back') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { time: number; msg: string });
    // One line for the whole outage, however many requests it saw. (A heavily loaded machine can make a
    // later command time out, which is logged as an outage of its own; that is outside this window.)
    expect(lines.filter((l) => l.msg.includes('Redis unavailable') && l.time >= killedAt && l.time <= restartedAt)).toHaveLength(1);
    expect(lines.some((l) => l.msg.includes('Redis is back') && l.time >= restartedAt)).toBe(true);
    counters.disconnect();
  }, 60_000);
});
