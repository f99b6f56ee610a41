// `--workers N`: N processes accept on one port (node:cluster hands connections out round-robin).
// The primary only supervises: it forks the workers, replaces one that dies unexpectedly, and on
// SIGTERM/SIGINT asks every worker to stop gracefully and exits when they have.
import cluster, { type Worker } from 'node:cluster';
import type { ServiceConfig } from '../config.js';

export const isClusterWorker = (): boolean => cluster.isWorker;

export function runPrimary(config: ServiceConfig): Promise<number> {
  const log = (message: string): void => {
    process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg: message })}\n`);
  };
  // A random cursor secret must be the same in every worker, or a cursor from one fails on another.
  const env = { CVE_RECORDS_CURSOR_SECRET: config.cursorSecret };
  let stopping = false;
  const fork = (): Worker => cluster.fork(env);

  if (!config.redisUrl && config.rateLimit.max > 0) {
    log(
      `${config.workers} workers without --redis-url: each worker limits on its own, so one address may get up to ${config.workers} times the limit`,
    );
  }
  for (let i = 0; i < config.workers; i++) fork();
  let listening = 0;
  cluster.on('listening', () => {
    if (++listening === config.workers) log(`${config.workers} workers serving at ${config.baseUrl}`);
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    log(`worker ${worker.process.pid} exited (${signal ?? code}); starting a replacement`);
    fork();
  });

  return new Promise((resolve) => {
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
      let left = workers.length;
      if (left === 0) resolve(0);
      for (const worker of workers) {
        worker.once('exit', () => --left === 0 && resolve(0));
        worker.process.kill('SIGTERM');
      }
    };
    // Kept, not once: a repeated signal (a group's and a relayed one) must not end the primary before its workers.
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}
