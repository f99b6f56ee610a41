// Assembles the service: the edge wraps every surface once, then each surface registers its routes.

import { METHODS } from 'node:http';
import compress from '@fastify/compress';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { registerA2aRoutes } from './a2a/a2a-routes.js';
import { registerAskRoute } from './ask/ask-route.js';
import type { ServiceContext } from './context.js';
import { registerDiscoveryRoutes } from './discovery/discovery-routes.js';
import { registerCaching, registerCodingInEntityTag } from './edge/caching.js';
import { registerClientAddress } from './edge/client-address.js';
import { clientErrorHandler, connectionOptions, registerRequestChecks, registerServerEvents } from './edge/connection-limits.js';
import { registerCors } from './edge/cors.js';
import { registerDraining } from './edge/draining.js';
import { generateRequestId, registerEdgeHeaders } from './edge/edge-headers.js';
import { frameworkErrors, registerErrorHandling } from './edge/error-handler.js';
import { registerJsonParser } from './edge/json-limits.js';
import { registerLifecycleHeaders } from './edge/lifecycle.js';
import { collectRoutes, registerMethodNotAllowed } from './edge/method-not-allowed.js';
import { MemoryRateStore, type RatePolicy, type RateStore } from './edge/rate-limit/gcra.js';
import { registerRateLimit } from './edge/rate-limit/rate-limit.js';
import { RedisRateStore } from './edge/rate-limit/redis-store.js';
import { registerRequestLog } from './edge/request-log.js';
import { registerMcpRoute } from './mcp/mcp-route.js';
import { registerRecordRoutes } from './rest/records-routes.js';
import { registerServiceRoutes } from './rest/service-routes.js';
import { registerWebRoutes } from './web/web-routes.js';

const COMPRESSION_THRESHOLD_BYTES = 1024;

export interface ServerOptions {
  /** A pino logger; none means no logging. */
  readonly logger?: FastifyServerOptions['loggerInstance'];
  /** The limiter's store; tests pass one with a fake clock. By default the configuration decides. */
  readonly rateStore?: RateStore;
}

export async function buildServer(ctx: ServiceContext, options: ServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: generateRequestId,
    frameworkErrors,
    clientErrorHandler,
    // While stopping, requests already on open connections are answered, not refused with 503.
    return503OnClosing: false,
    ...connectionOptions(ctx.config.timeouts),
    bodyLimit: ctx.config.bodyLimitBytes,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    ajv: {
      // Unknown parameters and properties are errors, never silently dropped; limits get their defaults.
      customOptions: { removeAdditional: false, useDefaults: true, coerceTypes: true, allErrors: false },
    },
  });

  // Bodies are JSON only; Fastify's default text/plain parser would let a string reach the schema.
  app.removeContentTypeParser('text/plain');
  registerJsonParser(app);
  // Every method node:http parses is routed, so that a path that exists answers WebDAV, SEARCH or PURGE
  // with 405 and Allow like any other method it lacks, rather than 404. (CONNECT never reaches routing.)
  for (const method of METHODS) {
    if (method !== 'CONNECT' && !app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
  }
  registerServerEvents(app);
  registerEdgeHeaders(app);
  registerDraining(app);
  registerClientAddress(app, ctx.config.trustProxy);
  registerRequestLog(app);
  registerErrorHandling(app);
  await registerCors(app);
  if (ctx.config.rateLimit.max > 0) {
    const policy: RatePolicy = { limit: ctx.config.rateLimit.max, windowSeconds: ctx.config.rateLimit.windowSeconds };
    registerRateLimit(app, policy, options.rateStore ?? (await createRateStore(ctx, policy, app)));
  }
  registerRequestChecks(app);
  registerCaching(app, ctx.config.cacheMaxAgeSeconds, () => ctx.store.current.version);
  // Off by default: the compression layer's hooks cost every response, compressed or not (about 14% of
  // get-one throughput, docs/PERFORMANCE.md), and a proxy or CDN in front usually compresses anyway.
  // When on, bodies over 1 KiB are compressed for clients that accept it.
  if (ctx.config.compression) {
    await app.register(compress, { global: true, threshold: COMPRESSION_THRESHOLD_BYTES, encodings: ['br', 'gzip'] });
    registerCodingInEntityTag(app);
  }
  const methodsByPath = collectRoutes(app);

  await app.register(async (v1) => {
    registerLifecycleHeaders(v1, ctx.config.lifecycle, ctx.config.baseUrl);
    registerServiceRoutes(v1, ctx);
    registerRecordRoutes(v1, ctx);
  });
  await registerAskRoute(app, ctx);
  await registerMcpRoute(app, ctx);
  await registerA2aRoutes(app, ctx);
  registerDiscoveryRoutes(app, ctx);
  registerWebRoutes(app, ctx);
  registerMethodNotAllowed(app, methodsByPath);
  return app;
}

async function createRateStore(ctx: ServiceContext, policy: RatePolicy, app: FastifyInstance): Promise<RateStore> {
  if (!ctx.config.redisUrl) return new MemoryRateStore(policy);
  const store = new RedisRateStore(ctx.config.redisUrl, policy, app.log);
  await store.connect();
  return store;
}
