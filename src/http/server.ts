// Assembles the service: the edge wraps every surface once, then each surface registers its routes.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ServiceContext } from './context.js';
import { registerCors } from './edge/cors.js';
import { frameworkErrors, registerErrorHandling } from './edge/error-handler.js';
import { registerLifecycleHeaders } from './edge/lifecycle.js';
import { collectRoutes, registerMethodNotAllowed } from './edge/method-not-allowed.js';
import { generateRequestId, registerRequestId } from './edge/request-id.js';
import { registerAskRoute } from './ask/ask-route.js';
import { registerDiscoveryRoutes } from './discovery/discovery-routes.js';
import { registerRecordRoutes } from './rest/records-routes.js';
import { registerServiceRoutes } from './rest/service-routes.js';

export interface ServerOptions {
  readonly logger?: FastifyServerOptions['logger'];
}

export async function buildServer(ctx: ServiceContext, options: ServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
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
  registerErrorHandling(app);
  await registerCors(app);
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
