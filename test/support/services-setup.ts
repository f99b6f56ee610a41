// Vitest global setup of the `postgres-redis` project (vitest.config.ts): the PostgreSQL and Redis its
// tests use. The configured ones (TEST_DATABASE_URL, TEST_REDIS_URL) when they answer; otherwise servers of
// this run's own (test/support/throwaway-services.ts), stopped when the run ends. Either way the tests
// read the addresses with inject() (test/support/services.ts).
import { connect } from 'node:net';
import type { TestProject } from 'vitest/node';
import { ensureDebianPackage, onPath } from './debian-packages.js';
import { startPostgres, startRedis, type ThrowawayService } from './throwaway-services.js';

const CONFIGURED = {
  databaseUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
} as const;

function answers(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || defaultPort), timeout: 2000 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The Redis outage test starts and kills a redis-server of its own, whichever Redis the others use.
  ensureDebianPackage('redis-server', 'redis-server', () => onPath('redis-server'));
  const started: ThrowawayService[] = [];
  const stopAll = () => Promise.all(started.map((service) => service.stop())).then(() => undefined);
  const use = async (name: string, configured: string, defaultPort: number, startOne: () => Promise<ThrowawayService>) => {
    if (await answers(configured, defaultPort)) return configured;
    const service = await startOne();
    started.push(service);
    process.stdout.write(
      `${name} is not answering at ${new URL(configured).host}: this run started its own at ${new URL(service.url).host}\n`,
    );
    return service.url;
  };
  try {
    project.provide('databaseUrl', await use('PostgreSQL', CONFIGURED.databaseUrl, 5432, startPostgres));
    project.provide('redisUrl', await use('Redis', CONFIGURED.redisUrl, 6379, () => startRedis()));
  } catch (error) {
    await stopAll();
    throw error;
  }
  return stopAll;
}
