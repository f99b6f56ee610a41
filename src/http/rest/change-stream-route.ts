// GET /api/v1/cve-records/changes/stream: the change feed pushed as Server-Sent Events. A stream first
// catches up from where the client stands (Last-Event-ID, `lastEventId` or `since`), in pages, waiting
// for the socket when it asks to wait, so a long catch-up costs the client's pace and never a buffer;
// then `ready`; then the hub gives it what lands.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_STREAMS } from '../../config.js';
import { type ChangeStreamQuery, LAST_EVENT_ID_HEADER, operations } from '../../contract/index.js';
import type { ChangePoint } from '../../core/change-order.js';
import { changeOf, latestChange, parseSince, walkChanges } from '../../core/changes.js';
import { listFilters } from '../../core/list.js';
import { StreamLimits } from '../edge/stream-limits.js';
import type { SurfaceContext } from '../shared/context.js';
import { openEventStreamResponse } from '../shared/event-stream-head.js';
import { operation, operationRoute } from '../shared/route-options.js';
import { type ChangeStream, ChangeStreamHub, changeEvent, readyEvent } from './change-stream-hub.js';
import { releaseRequestParser } from './request-parser.js';

/** Changes per catch-up page, and entries looked at per page at most (a rare filter scans in bounded steps). */
const CATCH_UP_PAGE = 100;
const CATCH_UP_SCAN = 5000;
/** How soon EventSource reconnects after the stream ends (the drain), in ms; its default is about 3 s. */
const RECONNECT_MS = 1000;

export function registerChangeStreamRoute(app: FastifyInstance, ctx: SurfaceContext): void {
  const settings = ctx.config.streams ?? DEFAULT_STREAMS;
  const limits = new StreamLimits(settings.perAddress);
  const hub = new ChangeStreamHub(ctx.changes, ctx.cursors, settings.keepAliveMs);
  // Without the draining layer (the edge benchmark's ablations), streams end only when the server closes.
  const stopDraining = app.hasDecorator('onDrain') ? app.onDrain(() => hub.endAll(ctx.config.timeouts.shutdownMs)) : () => {};
  app.addHook('preClose', (done) => {
    stopDraining();
    hub.close();
    done();
  });

  app.route(
    operationRoute(operation(operations, 'streamPublicCveRecordChanges'), async (request, reply) => {
      const query = request.query as ChangeStreamQuery;
      const resume = (request.headers[LAST_EVENT_ID_HEADER] as string | undefined) ?? query.lastEventId;
      // A bad start point is a 400 before the stream opens, never an event-stream that fails.
      const start: ChangePoint =
        resume !== undefined
          ? parseSince(resume, ctx.cursors, '`Last-Event-ID`')
          : query.since !== undefined
            ? parseSince(query.since, ctx.cursors)
            : latestChange(ctx.store.current);
      const release = limits.admit(request, reply);
      // The connection ends with the stream: nothing waits on it afterwards, and a drain closes it at once.
      reply.header('connection', 'close');
      const raw = openEventStreamResponse(reply);
      raw.once('close', release);
      raw.write(`retry: ${RECONNECT_MS}\n\n`);
      // Once the parser has finished the request's bytes: the route runs while it is still reading them.
      setImmediate(releaseRequestParser, raw);
      const stream: ChangeStream = { raw, filters: listFilters(query), point: start };
      hub.open(stream);
      await catchUp(stream, ctx, hub);
    }),
  );
}

/** Sends what changed after the stream's point, page by page, then `ready`, and hands the stream to the hub. */
async function catchUp(stream: ChangeStream, ctx: SurfaceContext, hub: ChangeStreamHub): Promise<void> {
  const { raw } = stream;
  while (!raw.destroyed && !raw.writableEnded) {
    const snapshot = ctx.store.current;
    const walk = walkChanges(snapshot, stream.point, CATCH_UP_PAGE, snapshot.filters.matcher(stream.filters), CATCH_UP_SCAN);
    let text = '';
    for (const entry of walk.entries) text += changeEvent(ctx.cursors.encodeChangePoint(entry.point), changeOf(snapshot, entry));
    stream.point = walk.last;
    if (!walk.hasMore) {
      // In the same turn as the last walk of the snapshot being served: nothing can land in between.
      hub.write(stream, text + readyEvent(ctx.cursors.encodeChangePoint(stream.point)));
      hub.live(stream);
      return;
    }
    if (hub.write(stream, text)) await nextTurn();
    else
      await new Promise<void>((resolve) => {
        const done = () => {
          raw.off('drain', done).off('close', done);
          resolve();
        };
        raw.once('drain', done).once('close', done);
      });
  }
}
