import { Server } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { pino } from 'pino';
import { DatabaseError } from '../catalog/postgres/database.js';
import { isStorePath } from '../catalog/sqlite/sqlite-store.js';
import type { ServiceConfig } from '../config.js';
import { createCursorCodec } from '../core/cursor.js';
import { prepareSnapshot, type Snapshot } from '../core/snapshot.js';
import { SnapshotStore } from '../core/snapshot-store.js';
import { buildServer } from '../http/server.js';
import { type CatalogSource, keepCurrent, loadSnapshot } from '../sources/catalog-source.js';
import { fileSource } from '../sources/file-source.js';
import { postgresSource } from '../sources/postgres/postgres-source.js';
import { sqliteSource } from '../sources/sqlite-source.js';
import { SERVICE_VERSION } from '../version.js';
import { collectAfterChanges, collectSoon } from './collect-after-change.js';
import { readSelection } from './selection-options.js';
import { serviceLog } from './service-log.js';
import { followInProcess } from './sync-command.js';

/** Loads the catalog, starts listening and returns the running server. */
export async function serve(config: ServiceConfig): Promise<FastifyInstance> {
  const log = serviceLog(config.logLevel);
  const { logger } = log;
  const source: CatalogSource = config.databaseUrl
    ? postgresSource(config.databaseUrl, logger, config.checkpointFile)
    : isStorePath(config.recordsFile)
      ? sqliteSource(config.recordsFile, config.checkpointFile, (message) => logger.warn({}, message))
      : fileSource(config.recordsFile);
  const snapshot = await initialSnapshot(config, source, logger);
  const store = new SnapshotStore(snapshot);
  const app = await buildServer({ config, store, cursors: createCursorCodec(config.cursorSecret), source }, { logger });
  // A reloaded snapshot is served only once its search index and other derived tables are built (in steps, between requests).
  const live = keepCurrent(source, store, app.log, prepareSnapshot);
  const stopCollecting = collectAfterChanges(store);
  const onHangup = () => void live.reload('SIGHUP');
  process.on('SIGHUP', onHangup);
  const syncing = config.sync ? await syncInProcess(config, () => void live.reload('synced')) : undefined;
  app.addHook('onClose', async () => {
    process.off('SIGHUP', onHangup);
    stopCollecting();
    await syncing?.stop();
    await source.close();
  });
  // flush() ends with an fsync, which fails (EINVAL) when stdout is a pipe or /dev/null; the lines are
  // written by then, and a failed fsync must not turn a clean stop into a crash.
  const flusher = setInterval(() => log.flush(), 1000);
  flusher.unref();
  app.addHook('onClose', (_instance, done) => {
    clearInterval(flusher);
    log.flush(() => done());
  });
  const address = await app.listen({ host: config.host, port: config.port });
  app.log.info(
    { address, records: snapshot.size, datasetVersion: snapshot.version, lastVerified: snapshot.lastVerified, version: SERVICE_VERSION },
    `public-cve-records ${SERVICE_VERSION} serving ${snapshot.size} records at ${address} (public URL ${config.baseUrl})`,
  );
  log.flush(); // the startup lines must not wait for the buffer to fill
  prepareFirst(snapshot, app.log);
  return app;
}

/**
 * The first catalog's index, built after listening, so the REST API answers at once; /ask waits for it.
 * Made here, not in serve: a closure there would share serve's scope with the SIGHUP handler, which lives as
 * long as the process, and so keep the first snapshot (its index, table and texts) for good, however many
 * changes replaced it: at 100,000 records 38 MB of index arrays alone (docs/PERFORMANCE.md, "Memory over many
 * deltas, stop 38").
 */
function prepareFirst(snapshot: Snapshot, log: FastifyInstance['log']): void {
  const started = Date.now();
  void snapshot.search.prepare().then(() => {
    log.info({ ms: Date.now() - started }, 'search index ready');
    return prepareSnapshot(snapshot).then(collectSoon);
  });
}

/** `--sync`: the sync loop in this process, writing the store served; each step is applied as it commits. */
async function syncInProcess(config: ServiceConfig, onStep: () => void): Promise<{ stop(): Promise<void> }> {
  const sync = config.sync!;
  const stopping = new AbortController();
  // One mapping thread: the serving thread and the other core stay for requests.
  const selection = await readSelection({ ids: sync.ids, workers: '1' });
  const running = followInProcess(sync.upstream, config.databaseUrl ?? config.recordsFile, {
    interval: sync.intervalSeconds,
    selection,
    signal: stopping.signal,
    onStep,
  });
  return {
    async stop() {
      stopping.abort();
      await running;
    },
  };
}

async function initialSnapshot(config: ServiceConfig, source: CatalogSource, log: pino.Logger): Promise<Snapshot> {
  try {
    return await loadSnapshot(source);
  } catch (error) {
    if (!(error instanceof DatabaseError) || !config.fallbackRecordsFile) throw error;
    log.warn(
      { err: { message: error.message }, fallback: config.fallbackRecordsFile },
      'PostgreSQL unreachable at start: serving the fallback catalog until it is back',
    );
    return loadSnapshot(fileSource(config.fallbackRecordsFile));
  }
}

/**
 * Stops accepting connections and lets every open connection finish what it was sent: every answer from
 * now on says `Connection: close` (edge/draining.ts), so busy connections end with their answer and a
 * keep-alive client moves on instead of being reset; idle ones close after the keep-alive timeout. (http.Server#close would
 * also cut a connection between two pipelined requests, losing the second.) Then the rest of the
 * service closes (the limiter's Redis connection, the log). Connections still open after `deadlineMs`
 * are cut, so a client that never stops cannot hold a deploy hostage.
 */
export async function stopGracefully(app: FastifyInstance, deadlineMs: number): Promise<void> {
  app.log.info({ deadlineMs }, 'stopping: finishing requests in flight');
  app.drain();
  const deadline = setTimeout(() => {
    app.log.warn({}, 'stopping: deadline reached, closing the remaining connections');
    app.server.closeAllConnections();
  }, deadlineMs);
  deadline.unref();
  await new Promise<void>((resolve) => Server.prototype.close.call(app.server, () => resolve()));
  clearTimeout(deadline);
  await app.close();
}
