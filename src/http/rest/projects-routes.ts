import type { FastifyInstance } from 'fastify';
import { operations, type ProjectsQuery } from '../../contract/index.js';
import { listProjects } from '../../core/project-list.js';
import type { SurfaceContext } from '../shared/context.js';
import { operation, operationRoute } from '../shared/route-options.js';

export function registerProjectRoutes(app: FastifyInstance, ctx: SurfaceContext): void {
  app.route(
    operationRoute(operation(operations, 'listProjects'), (request) =>
      listProjects(ctx.store.current, request.query as ProjectsQuery, ctx.cursors),
    ),
  );
}
