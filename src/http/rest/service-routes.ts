import type { FastifyInstance } from 'fastify';
import { operations } from '../../contract/index.js';
import { capabilities, health, sandbox } from '../../core/service-info.js';
import type { SurfaceContext } from '../shared/context.js';
import { operation, operationRoute } from '../shared/route-options.js';

export function registerServiceRoutes(app: FastifyInstance, ctx: SurfaceContext): void {
  app.route(operationRoute(operation(operations, 'getAgentApiHealth'), () => health(ctx.description, ctx.source)));
  app.route(operationRoute(operation(operations, 'getServiceCapabilities'), () => capabilities(ctx.description, ctx.store.current)));
  app.route(operationRoute(operation(operations, 'getPublicApiSandbox'), () => sandbox(ctx.description, ctx.store.current)));
}
