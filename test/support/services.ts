// The machine services some tests need. When one does not answer, the test fails with one line that
// names it and the command that starts it (docs/OPERATIONS.md, "Services the tests need"), instead of
// a connection error deep in a stack.
import { connect } from 'node:net';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const START = {
  PostgreSQL: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
  Redis: 'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no',
} as const;

function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

async function require(service: keyof typeof START, url: string, defaultPort: number): Promise<void> {
  const { hostname, port } = new URL(url);
  if (await answers(hostname, Number(port || defaultPort))) return;
  throw new Error(
    `${service} is not answering at ${hostname}:${port || defaultPort}: start it with \`${START[service]}\` (see docs/OPERATIONS.md).`,
  );
}

export const requirePostgres = (): Promise<void> => require('PostgreSQL', TEST_DATABASE_URL, 5432);
export const requireRedis = (): Promise<void> => require('Redis', TEST_REDIS_URL, 6379);
