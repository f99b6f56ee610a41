// A path that exists answers other methods with 405 and `Allow`, never a bare 404. Routes are
// collected as they are declared; once all are, the missing methods of each path get a 405 route. The
// order is held by one function, withMethodNotAllowed, rather than by the order of lines in a caller.
import { METHODS } from 'node:http';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { ServiceError } from '../../contract/index.js';
import { sendError } from './error-handler.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A sentence added to the message of this path's 405s, for clients that reach the path with a
     * method of another protocol (GET /mcp from an HTTP+SSE client) and need to be told what to do.
     */
    methodNotAllowedHint?: string;
  }
}

const IS_405_ROUTE = Symbol('method-not-allowed');

interface PathRoutes {
  readonly methods: Set<string>;
  hint: string | undefined;
}

function collectRoutes(app: FastifyInstance): Map<string, PathRoutes> {
  const routesByPath = new Map<string, PathRoutes>();
  app.addHook('onRoute', (route: RouteOptions) => {
    if ((route.config as Record<symbol, unknown> | undefined)?.[IS_405_ROUTE] || route.url === '*') return;
    const path = routesByPath.get(route.url) ?? { methods: new Set<string>(), hint: undefined };
    for (const m of [route.method].flat()) path.methods.add(m);
    path.hint ??= route.config?.methodNotAllowedHint;
    routesByPath.set(route.url, path);
  });
  return routesByPath;
}

function registerMethodNotAllowed(app: FastifyInstance, routesByPath: Map<string, PathRoutes>): void {
  for (const [url, { methods, hint }] of routesByPath) {
    const allow = [...methods, 'OPTIONS'].join(', ');
    const message = (method: string) => `${method} is not supported here; use ${allow}.${hint ? ` ${hint}` : ''}`;
    const others = app.supportedMethods.filter((m) => !methods.has(m) && m !== 'OPTIONS');
    if (others.length === 0) continue;
    app.route({
      method: others,
      url,
      config: { [IS_405_ROUTE]: true },
      exposeHeadRoute: false,
      // Answered before the body is read: the method is wrong whatever the body holds.
      onRequest: (request, reply, done) => {
        reply.header('allow', allow);
        sendError(request, reply, new ServiceError('method_not_allowed', message(request.method), { allow: allow.split(', ') }));
        done();
      },
      handler: () => undefined,
    });
  }
}

/**
 * Registers the routes `register` declares, then a 405 route for every method each of their paths
 * lacks. Every method node:http parses is routed first, so WebDAV's or `SEARCH` get 405 like any other.
 */
export async function withMethodNotAllowed(app: FastifyInstance, register: () => Promise<void>): Promise<void> {
  for (const method of METHODS) {
    // CONNECT never reaches routing (node:http emits it as its own event, see connection-limits.ts).
    if (method !== 'CONNECT' && !app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
  }
  const routesByPath = collectRoutes(app);
  await register();
  if (routesByPath.size === 0) throw new Error('withMethodNotAllowed: no route was declared');
  registerMethodNotAllowed(app, routesByPath);
}
