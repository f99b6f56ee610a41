import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  type BatchRequest,
  type ChangesQuery,
  type ListQuery,
  operations,
  ServiceError,
  type VersionCheckRequest,
} from '../../contract/index.js';
import { batchGet } from '../../core/batch.js';
import { listChanges } from '../../core/changes.js';
import { batchGetDetails, detailsBody } from '../../core/details.js';
import { filtersReady, planPage, prepareFilters } from '../../core/list.js';
import type { Snapshot } from '../../core/snapshot.js';
import { checkVersions } from '../../core/version-checks.js';
import { SERVICE_VERSION } from '../../version.js';
import { namedEntityTag } from '../edge/caching.js';
import type { SurfaceContext } from '../shared/context.js';
import { operation, operationRoute } from '../shared/route-options.js';
import { pageBody, pageTagger } from './record-page.js';
import { storedRecord } from './stored-records.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The current snapshot and the position of the record the path names; a 404 when it has none. */
function recordAtPath(ctx: SurfaceContext, request: FastifyRequest): { snapshot: Snapshot; position: number; recordId: string } {
  const { recordId } = request.params as { recordId: string };
  const snapshot = ctx.store.current;
  const position = snapshot.positionOf(recordId);
  if (position === undefined) throw new ServiceError('record_not_found', `There is no record ${recordId}.`, { recordId });
  return { snapshot, position, recordId };
}

export function registerRecordRoutes(app: FastifyInstance, ctx: SurfaceContext): void {
  // Pages' bytes depend on the cursor secret through the cursors they carry; a cursor it signs names it.
  const pageTag = pageTagger(ctx.cursors.encode('CVE-0000-0000', {}));
  app.route(
    operationRoute(operation(operations, 'listPublicCveRecords'), (request, reply) => {
      const snapshot = ctx.store.current;
      const query = request.query as ListQuery;
      const answer = () => {
        const plan = planPage(snapshot, query, ctx.cursors);
        reply.header('etag', pageTag(snapshot, request.url)).type(JSON_TYPE);
        return pageBody(snapshot, plan);
      };
      return filtersReady(snapshot, query) ? answer() : prepareFilters(snapshot, query).then(answer);
    }),
  );
  app.route(
    operationRoute(operation(operations, 'listPublicCveRecordChanges'), (request) =>
      listChanges(ctx.store.current, request.query as ChangesQuery, ctx.cursors),
    ),
  );
  app.route(
    operationRoute(operation(operations, 'getPublicCveRecord'), (request, reply) => {
      const { snapshot, position } = recordAtPath(ctx, request);
      const stored = storedRecord(snapshot, position);
      reply.header('etag', stored.etag).type(JSON_TYPE);
      return stored.body;
    }),
  );
  app.route(
    operationRoute(operation(operations, 'batchGetPublicCveRecords'), (request) =>
      batchGet(ctx.store.current, (request.body as BatchRequest).recordIds),
    ),
  );
  app.route(
    operationRoute(operation(operations, 'getPublicCveRecordDetails'), (request, reply) => {
      const { snapshot, position, recordId } = recordAtPath(ctx, request);
      // Tagged by what makes the bytes (the dataset, the code, the record) rather than by hashing them per request.
      reply.header('etag', namedEntityTag(snapshot.version, SERVICE_VERSION, recordId)).type(JSON_TYPE);
      return detailsBody(snapshot, position, storedRecord(snapshot, position).body);
    }),
  );
  app.route(
    operationRoute(operation(operations, 'batchGetPublicCveRecordDetails'), (request) =>
      batchGetDetails(ctx.store.current, (request.body as BatchRequest).recordIds),
    ),
  );
  app.route(
    operationRoute(operation(operations, 'batchCheckVersions'), (request) =>
      checkVersions(ctx.store.current, request.body as VersionCheckRequest),
    ),
  );
}
