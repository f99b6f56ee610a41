// What the edge's steps need to know of the route a request reached: its URL pattern (the request line) and
// its caching policy (the caching step). Fastify hands both out only through `request.routeOptions`, a
// getter that builds a 13-field object (and asks the router about version constraints) at every read, and
// the caching step and the request line read it at every request (about 0.4 thousand instructions each,
// docs/PERFORMANCE.md, "Hot path, stop 36"). Here each route's two values are made once, when the route is
// declared, and handed to the request by a wrapper of the route's handler.
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';

export interface EdgeRoute {
  /** The route's URL pattern, as Fastify's `routeOptions.url`; none for a request no route took (a 404). */
  readonly url: string | undefined;
  /** `url` as JSON writes it (`null` for none), for the request line. */
  readonly urlJson: string;
  /** The route's caching policy, as caching.ts declares it on Fastify's route config (named there, not imported: caching.ts reads this file). */
  readonly caching: FastifyContextConfig['caching'];
}

const ROUTE = Symbol('edge route');

type Routed = FastifyRequest & { [ROUTE]: EdgeRoute | null };

/** Every route declared after this call hands its EdgeRoute to the requests that reach its handler. */
export function registerRouteOf(app: FastifyInstance): void {
  app.decorateRequest(ROUTE, null);
  app.addHook('onRoute', (route) => {
    const known = edgeRoute(route.url, route.config?.caching);
    const handler = route.handler as (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) => unknown;
    route.handler = function routed(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      (request as Routed)[ROUTE] = known;
      return handler.call(this, request, reply);
    } as RouteHandlerMethod;
  });
}

/**
 * The route `request` reached. A request answered before its handler (a preflight, a 429, a validation
 * error) or by no route at all (a 404) carries none: Fastify's getter answers for those, the rare ones.
 */
export function routeOf(request: FastifyRequest): EdgeRoute {
  const known = (request as Routed)[ROUTE];
  if (known) return known;
  const options = request.routeOptions;
  return edgeRoute(options.url, options.config?.caching);
}

function edgeRoute(url: string | undefined, caching: EdgeRoute['caching']): EdgeRoute {
  return { url, urlJson: url === undefined ? 'null' : JSON.stringify(url), caching };
}
