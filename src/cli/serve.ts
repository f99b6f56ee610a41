import type { FastifyInstance } from 'fastify';
import type { ServiceConfig } from '../config.js';
import { createCursorCodec } from '../core/cursor.js';
import { createSnapshot } from '../core/snapshot.js';
import { SnapshotStore } from '../core/snapshot-store.js';
import { buildServer } from '../http/server.js';
import { readCatalogFile } from '../sources/catalog-file.js';
import { SERVICE_VERSION } from '../version.js';

/** Loads the catalog, starts listening and returns the running server. */
export async function serve(config: ServiceConfig): Promise<FastifyInstance> {
  const snapshot = createSnapshot(await readCatalogFile(config.recordsFile));
  const app = await buildServer(
    { config, store: new SnapshotStore(snapshot), cursors: createCursorCodec(config.cursorSecret) },
    { logger: { level: 'info' } },
  );
  await app.listen({ host: config.host, port: config.port });
  app.log.info(
    { records: snapshot.size, datasetVersion: snapshot.version, lastVerified: snapshot.lastVerified, version: SERVICE_VERSION },
    `public-cve-records ${SERVICE_VERSION} serving ${snapshot.size} records at ${config.baseUrl}`,
  );
  return app;
}
