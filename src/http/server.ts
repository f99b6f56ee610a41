// Assembles the service: the edge wraps every surface once, then each surface registers its routes.
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ServiceContext } from './context.js';
import { registerCors } from './edge/cors.js';
import { frameworkErrors, registerErrorHandling } from './edge/error-handler.js';
import { registerLifecycleHeaders } from './edge/lifecycle.js';
import { collectRoutes, registerMethodNotAllowed } from './edge/method-not-allowed.js';
import { generateRequestId, registerRequestId } from './edge/request-id.js';
import { registerRequestLog } from './edge/request-log.js';
import type { MemoryRateStore } from './edge/rate-limit/gcra.js';
import { registerRateLimit } from './edge/rate-limit/rate-limit.js';
import { registerAskRoute } from './ask/ask-route.js';
import { registerDiscoveryRoutes } from './discovery/discovery-routes.js';
import { registerRecordRoutes } from './rest/records-routes.js';
import { registerServiceRoutes } from './rest/service-routes.js';

export interface ServerOptions {
  /** A pino logger; none means no logging. */
  readonly logger?: FastifyServerOptions['loggerInstance'];
  /** The limiter's store; tests pass one with a fake clock. */
  readonly rateStore?: MemoryRateStore;
}

export async function buildServer(ctx: ServiceContext, options: ServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: generateRequestId,
    frameworkErrors,
    bodyLimit: ctx.config.bodyLimitBytes,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    ajv: {
      // Unknown parameters and properties are errors, never silently dropped; limits get their defaults.
      customOptions: { removeAdditional: false, useDefaults: true, coerceTypes: true, allErrors: false },
    },
  });

  // Bodies are JSON only; Fastify's default text/plain parser would let a string reach the schema.
  app.removeContentTypeParser('text/plain');
  registerRequestId(app);
  registerRequestLog(app);
  registerErrorHandling(app);
  await registerCors(app);
  registerRateLimit(app, { limit: ctx.config.rateLimit.max, windowSeconds: ctx.config.rateLimit.windowSeconds }, options.rateStore);
  const methodsByPath = collectRoutes(app);

  await app.register(async (v1) => {
    registerLifecycleHeaders(v1, ctx.config.lifecycle, ctx.config.baseUrl);
    registerServiceRoutes(v1, ctx);
    registerRecordRoutes(v1, ctx);
  });
  registerAskRoute(app, ctx);
  registerDiscoveryRoutes(app, ctx);
  registerMethodNotAllowed(app, methodsByPath);
  return app;
}
