import type { FastifyInstance } from 'fastify';
import { operations } from '../../contract/index.js';
import { capabilities, health, sandbox } from '../../core/service-info.js';
import type { ServiceContext } from '../context.js';
import { operation, operationRoute } from './route-options.js';

export function registerServiceRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.route(operationRoute(operation(operations, 'getAgentApiHealth'), () => health()));
  app.route(operationRoute(operation(operations, 'getServiceCapabilities'), () => capabilities(ctx.config, ctx.store.current)));
  app.route(operationRoute(operation(operations, 'getPublicApiSandbox'), () => sandbox(ctx.config, ctx.store.current)));
}
