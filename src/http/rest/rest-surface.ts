// The REST API v1: the spec's operations under /api/v1, each route built from its operation in the
// contract. Only these answers carry the lifecycle headers, once v1 is deprecated.
import type { FastifyPluginAsync } from 'fastify';
import { registerLifecycleHeaders } from '../edge/lifecycle.js';
import type { SurfaceContext } from '../shared/context.js';
import { registerChangeStreamRoute } from './change-stream-route.js';
import { registerExportRoute } from './export-route.js';
import { registerProjectRoutes } from './projects-routes.js';
import { registerRecordRoutes } from './records-routes.js';
import { registerServiceRoutes } from './service-routes.js';

export const restSurface: FastifyPluginAsync<SurfaceContext> = async (app, ctx) => {
  registerLifecycleHeaders(app, ctx.config.lifecycle, ctx.config.baseUrl);
  registerServiceRoutes(app, ctx);
  registerRecordRoutes(app, ctx);
  registerChangeStreamRoute(app, ctx);
  registerProjectRoutes(app, ctx);
  registerExportRoute(app, ctx);
};
