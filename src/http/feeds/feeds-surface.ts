// Atom feeds for feed readers: the most recently published records, of the whole catalog or of one
// project (`?project=`, the list filter's exact name). A project with nothing published, or none by
// that name, gives a valid empty feed, as the list gives an empty page: a reader subscribed before a
// project's first record keeps its subscription. Tagged by the dataset version, so a reader's poll of
// an unchanged catalog is a 304 that builds nothing.
import type { FastifyPluginAsync } from 'fastify';
import { FEED_ENTRIES, type FeedQuery, operations } from '../../contract/index.js';
import { newestPublished } from '../../core/newest-published.js';
import { answeredNotModified } from '../edge/caching.js';
import type { SurfaceContext } from '../shared/context.js';
import { operation, operationRoute } from '../shared/route-options.js';
import { atomFeed } from './atom-feed.js';

export const feedsSurface: FastifyPluginAsync<SurfaceContext> = async (app, ctx) => {
  app.route(
    operationRoute(operation(operations, 'getPublishedRecordsFeed'), (request, reply) => {
      const snapshot = ctx.store.current;
      if (answeredNotModified(request, reply, snapshot)) return reply;
      const { project } = request.query as FeedQuery;
      const candidates = project === undefined ? snapshot.filters.status('public') : snapshot.filters.project(project);
      const feed = atomFeed({
        baseUrl: ctx.config.baseUrl,
        serviceName: ctx.description.name,
        serviceVersion: ctx.description.version,
        project,
        entries: newestPublished(snapshot.table, candidates, FEED_ENTRIES).map((position) => snapshot.entryAt(position)),
        lastVerified: snapshot.lastVerified,
      });
      return reply.header('content-type', 'application/atom+xml; charset=utf-8').send(feed);
    }),
  );
};
