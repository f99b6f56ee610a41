// The bulk export: the snapshot's gzip NDJSON, made once per dataset version (Snapshot.export) and
// streamed from memory. Clients that accept gzip get those bytes as they are, with `Content-Encoding:
// gzip`, which fetch, browsers and `curl --compressed` undo on their own; others get the lines
// inflated on the way out (by zlib's thread pool, not the event loop).
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { NDJSON_MEDIA_TYPE, operations } from '../../contract/index.js';
import { answeredNotModified } from '../edge/caching.js';
import type { SurfaceContext } from '../shared/context.js';
import { acceptedCodings } from '../shared/negotiation.js';
import { operation, operationRoute } from '../shared/route-options.js';

export function registerExportRoute(app: FastifyInstance, ctx: SurfaceContext): void {
  const route = operationRoute(operation(operations, 'exportPublicCveRecords'), async (request, reply) => {
    const snapshot = ctx.store.current;
    const inGzip = acceptedCodings(request.headers['accept-encoding']).has('gzip');
    reply.header('vary', 'Accept-Encoding');
    if (answeredNotModified(request, reply, snapshot, inGzip ? 'gzip' : undefined)) return reply;
    const built = await snapshot.export.prepare();
    reply.header('content-type', NDJSON_MEDIA_TYPE).header('content-disposition', 'attachment; filename="cve-records.ndjson"');
    const gzip = Readable.from(built.gzip, { objectMode: false });
    if (inGzip) return reply.header('content-encoding', 'gzip').header('content-length', built.gzipBytes).send(gzip);
    const lines = createGunzip();
    // A failure ends the answer early (the body falls short of Content-Length); there is nothing else to tell.
    pipeline(gzip, lines).catch(() => undefined);
    return reply.header('content-length', built.ndjsonBytes).send(lines);
  });
  // The bytes are compressed already, or deliberately not: the compression layer leaves them alone.
  app.route({ ...route, compress: false });
}
