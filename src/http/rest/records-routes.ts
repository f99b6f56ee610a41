import type { FastifyInstance } from 'fastify';
import { type BatchRequest, type ChangesQuery, type ListQuery, operations, ServiceError } from '../../contract/index.js';
import { batchGet } from '../../core/batch.js';
import { listChanges } from '../../core/changes.js';
import { batchGetDetails, recordDetails } from '../../core/details.js';
import { listRecords } from '../../core/list.js';
import type { RecordEntry } from '../../core/record-entry.js';
import type { SurfaceContext } from '../shared/context.js';
import { operation, operationRoute } from '../shared/route-options.js';

export function registerRecordRoutes(app: FastifyInstance, ctx: SurfaceContext): void {
  app.route(
    operationRoute(operation(operations, 'listPublicCveRecords'), (request) =>
      listRecords(ctx.store.current, request.query as ListQuery, ctx.cursors),
    ),
  );
  app.route(
    operationRoute(operation(operations, 'listPublicCveRecordChanges'), (request) =>
      listChanges(ctx.store.current, request.query as ChangesQuery, ctx.cursors),
    ),
  );
  app.route(operationRoute(operation(operations, 'getPublicCveRecord'), (request) => entryOf(ctx, request.params).record));
  app.route(
    operationRoute(operation(operations, 'batchGetPublicCveRecords'), (request) =>
      batchGet(ctx.store.current, (request.body as BatchRequest).recordIds),
    ),
  );
  app.route(operationRoute(operation(operations, 'getPublicCveRecordDetails'), (request) => recordDetails(entryOf(ctx, request.params))));
  app.route(
    operationRoute(operation(operations, 'batchGetPublicCveRecordDetails'), (request) =>
      batchGetDetails(ctx.store.current, (request.body as BatchRequest).recordIds),
    ),
  );
}

/** The record a path names, or the 404 `record_not_found`. */
function entryOf(ctx: SurfaceContext, params: unknown): RecordEntry {
  const { recordId } = params as { recordId: string };
  const entry = ctx.store.current.get(recordId);
  if (!entry) throw new ServiceError('record_not_found', `There is no record ${recordId}.`, { recordId });
  return entry;
}
