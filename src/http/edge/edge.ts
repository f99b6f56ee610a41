// The edge: what every request pays for, whatever the surface, as one onRequest hook and one onSend hook;
// the request log is written where Fastify writes its own line when a response ends (request-log.ts). Each
// concern stays in its own file; this one puts them in order.
// Fastify runs each hook through its hook runner, a pass per hook per request; eight hooks, one per
// concern, cost more than most of the concerns themselves (docs/PERFORMANCE.md, "The edge layer by layer").
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TrustProxy } from '../../config.js';
import { type Caching, cachingOf } from './caching.js';
import { clientAddressOf } from './client-address.js';
import { checkRequest } from './connection-limits.js';
import { answerPreflight, registerPreflightRoute } from './cors.js';
import { registerDraining } from './draining.js';
import { setEdgeHeaders } from './edge-headers.js';
import type { RatePolicy, RateStore } from './rate-limit/gcra.js';
import { type Limiter, registerRateLimit } from './rate-limit/rate-limit.js';
import type { RequestLogController } from './request-log.js';
import { registerRouteOf } from './route-of.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The client's address as the limiter and the logs see it. */
    client: string;
    /**
     * True when a proxy trusted by address asks on its own behalf (its health checks): it names no client.
     * The limiter does not count these, or the checks of every replica, sharing one budget, would soon be refused.
     */
    fromTrustedProxy: boolean;
  }
}

/**
 * The edge's layers, in the order the ablation benchmark adds them to the REST routes (bench/layers.ts):
 * security and CORS headers, client address, rate limit, caching, request log (with the logger itself),
 * and the rest (draining, request checks, error handling, 405s, the other surfaces). A served server has
 * them all; the benchmark builds servers with fewer to show what each costs.
 */
export const EDGE_LAYERS = ['headers', 'client-address', 'rate-limit', 'caching', 'request-log', 'rest'] as const;
export type EdgeLayer = (typeof EDGE_LAYERS)[number];

export interface EdgeOptions {
  readonly layers: ReadonlySet<EdgeLayer>;
  readonly trustProxy: TrustProxy;
  /** None: no limit (`--rate-limit-max 0`). */
  readonly rateLimit: { readonly policy: RatePolicy; readonly store: RateStore } | undefined;
  readonly cacheMaxAgeSeconds: number;
  readonly datasetVersion: () => string;
  /** The app's log controller (given to Fastify when the app was made), told here to write the request line. */
  readonly requestLog: RequestLogController;
}

type Done = () => void;

export function registerEdge(app: FastifyInstance, options: EdgeOptions): void {
  const on = (layer: EdgeLayer) => options.layers.has(layer);
  const headers = on('headers');
  const checks = on('rest');
  const address = on('client-address') ? clientAddressOf(options.trustProxy) : undefined;
  const limiter: Limiter | undefined =
    on('rate-limit') && options.rateLimit ? registerRateLimit(app, options.rateLimit.policy, options.rateLimit.store) : undefined;
  const caching: Caching | undefined = on('caching') ? cachingOf(options.cacheMaxAgeSeconds, options.datasetVersion) : undefined;
  const draining = on('rest') ? registerDraining(app) : undefined;
  if (caching || on('request-log')) registerRouteOf(app);
  app.decorateRequest('client', '');
  app.decorateRequest('fromTrustedProxy', false);
  if (headers) registerPreflightRoute(app);

  /** After the limit: the request checks (a 414 or a 400 counts against the limit, as any request). */
  const proceed = (request: FastifyRequest, reply: FastifyReply, done: Done): void => {
    if (checks) checkRequest(request, reply);
    done();
  };
  if (headers || address || limiter || checks) {
    app.addHook('onRequest', (request, reply, done) => {
      if (headers) setEdgeHeaders(request, reply);
      if (address) address(request);
      // Preflights are answered before the limit counts them. An answering hook does not call done():
      // the reply may still be on its way out, and done() would run the route's handler meanwhile.
      if (headers && request.method === 'OPTIONS') return answerPreflight(reply);
      if (!limiter) return proceed(request, reply, done);
      const allowed = limiter(request, reply);
      if (allowed === true) proceed(request, reply, done);
      else if (allowed !== false) allowed.then((ok) => ok && proceed(request, reply, done), done);
    });
  }
  if (caching || draining) {
    app.addHook('onSend', (request, reply, payload, done) => {
      // Once a stop begins, every answer closes its connection (draining.ts).
      if (draining?.()) reply.header('connection', 'close');
      done(null, caching ? caching(request, reply, payload) : payload);
    });
  }
  if (on('request-log')) options.requestLog.logTo(app.log);
}
