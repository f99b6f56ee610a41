// Assembles the service: the edge wraps every surface once, then each surface registers its routes as a
// plugin of its own. Surfaces never see each other; what they share comes from http/shared.
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { createValidator } from '../contract/index.js';
import { ChangeFollower } from '../core/change-follower.js';
import { a2aSurface } from './a2a/a2a-surface.js';
import { askSurface } from './ask/ask-surface.js';
import { discoverySurface } from './discovery/discovery-surface.js';
import { registerCompression } from './edge/caching.js';
import { clientErrorHandler, connectionOptions, registerServerEvents } from './edge/connection-limits.js';
import { EDGE_LAYERS, type EdgeLayer, registerEdge } from './edge/edge.js';
import { frameworkErrors, registerErrorHandling } from './edge/error-handler.js';
import { registerJsonParser } from './edge/json-limits.js';
import { withMethodNotAllowed } from './edge/method-not-allowed.js';
import { MemoryRateStore, type RatePolicy, type RateStore } from './edge/rate-limit/gcra.js';
import { RedisRateStore } from './edge/rate-limit/redis-store.js';
import { generateRequestId } from './edge/request-id.js';
import { RequestLogController } from './edge/request-log.js';
import { feedsSurface } from './feeds/feeds-surface.js';
import { LazySchemas } from './lazy-schemas.js';
import { mcpSurface } from './mcp/mcp-surface.js';
import { restSurface } from './rest/rest-surface.js';
import type { ServiceContext, SurfaceContext } from './shared/context.js';
import { describeService } from './shared/service-description.js';
import { webSurface } from './web/web-surface.js';

/** Every surface of the service, each a Fastify plugin given the same context. */
const SURFACES = [restSurface, askSurface, mcpSurface, a2aSurface, discoverySurface, feedsSurface, webSurface];

export { EDGE_LAYERS, type EdgeLayer };

export interface ServerOptions {
  /** A pino logger; none means no logging. */
  readonly logger?: FastifyServerOptions['loggerInstance'];
  /** The limiter's store; tests pass one with a fake clock. By default the configuration decides. */
  readonly rateStore?: RateStore;
  /** The edge's layers to build; all of them unless the ablation benchmark says otherwise. */
  readonly layers?: ReadonlySet<EdgeLayer>;
}

const ALL_LAYERS: ReadonlySet<EdgeLayer> = new Set(EDGE_LAYERS);

export async function buildServer(ctx: ServiceContext, options: ServerOptions = {}): Promise<FastifyInstance> {
  const layers = options.layers ?? ALL_LAYERS;
  const has = (layer: EdgeLayer) => layers.has(layer);
  const logger = has('request-log') ? options.logger : undefined;
  const schemas = new LazySchemas();
  const requestLog = new RequestLogController();
  const app = Fastify({
    ...schemas.options,
    ...(logger ? { loggerInstance: withoutRequestChildren(logger) } : { logger: false }),
    logController: requestLog,
    genReqId: generateRequestId,
    frameworkErrors,
    clientErrorHandler,
    // While stopping, requests already on open connections are answered, not refused with 503.
    return503OnClosing: false,
    ...connectionOptions(ctx.config.timeouts),
    bodyLimit: ctx.config.bodyLimitBytes,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
  });
  // Requests are checked by the contract's validator, as MCP tool arguments are.
  const requests = createValidator('request');
  schemas.install(app, (schema) => requests.compile(schema));

  // Bodies are JSON only; Fastify's default text/plain parser would let a string reach the schema.
  app.removeContentTypeParser('text/plain');
  if (has('rest')) {
    registerJsonParser(app);
    registerServerEvents(app);
  }
  const policy: RatePolicy = { limit: ctx.config.rateLimit.max, windowSeconds: ctx.config.rateLimit.windowSeconds };
  const limited = has('rate-limit') && policy.limit > 0;
  registerEdge(app, {
    layers,
    trustProxy: ctx.config.trustProxy,
    rateLimit: limited ? { policy, store: options.rateStore ?? (await createRateStore(ctx, policy, app)) } : undefined,
    cacheMaxAgeSeconds: ctx.config.cacheMaxAgeSeconds,
    datasetVersion: () => ctx.store.current.version,
    requestLog,
  });
  // After the edge's hooks: the 404 handler's context takes the hooks declared before it.
  if (has('rest')) registerErrorHandling(app);
  // Off by default: the compression layer's hooks cost every response, compressed or not (about 14% of
  // get-one throughput, docs/PERFORMANCE.md), and a proxy or CDN in front usually compresses anyway.
  if (ctx.config.compression) await registerCompression(app);

  const changes = new ChangeFollower(ctx.store);
  app.addHook('onClose', async () => changes.close());
  const surfaceContext: SurfaceContext = { ...ctx, description: describeService(ctx.config), changes };
  if (!has('rest')) {
    await app.register(restSurface, surfaceContext);
    return app;
  }
  await withMethodNotAllowed(app, async () => {
    for (const surface of SURFACES) await app.register(surface, surfaceContext);
  });
  return app;
}

/**
 * The service's logger as Fastify's, answering Fastify's request for a child logger per request with a
 * light one (RequestLogger) that makes the pino child, with the request's id bound, only when a line is
 * written through it: the request line names its id itself (edge/request-log.ts), and a pino child per
 * request cost more than the line, while a line written through `request.log` (an unexpected failure, or
 * Fastify's own warnings about a reply) carries the id as a child's would. Fastify's default child factory
 * is kept, the one it calls without checking what comes back: a `childLoggerFactory` of our own had
 * Fastify check the logger's seven methods at every request (about 2 thousand instructions,
 * docs/PERFORMANCE.md, "Hot path, stop 35"). Fastify takes one child without bindings at its start (for
 * its serializers of requests and replies, which only its own request logging uses, off here): that is
 * this logger itself. A derived logger carries the override, not the caller's.
 */
function withoutRequestChildren(logger: FastifyBaseLogger): FastifyBaseLogger {
  const own = logger.child({});
  const pinoChild = own.child;
  own.child = function child(this: FastifyBaseLogger, bindings: Bindings, options?: ChildLoggerOptions) {
    for (const _ in bindings) return new RequestLogger(this, pinoChild, bindings, options) as unknown as FastifyBaseLogger;
    return this;
  } as FastifyBaseLogger['child'];
  return own;
}

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = Parameters<FastifyBaseLogger['child']>[1];
type LogFn = FastifyBaseLogger['info'];

/** A child logger made when it is first written to (a pino child of `parent` with `bindings`). */
class RequestLogger {
  #made: FastifyBaseLogger | undefined = undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly makeChild: FastifyBaseLogger['child'],
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions | undefined,
  ) {}

  /** The pino child, made at the first use. */
  get made(): FastifyBaseLogger {
    this.#made ??= this.makeChild.call(this.parent, this.bindings, this.options);
    return this.#made;
  }

  get level(): string {
    return this.#made?.level ?? this.options?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.made.level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made.child(bindings, options);
  }

  fatal(...args: Parameters<LogFn>): void {
    this.made.fatal(...args);
  }

  error(...args: Parameters<LogFn>): void {
    this.made.error(...args);
  }

  warn(...args: Parameters<LogFn>): void {
    this.made.warn(...args);
  }

  info(...args: Parameters<LogFn>): void {
    this.made.info(...args);
  }

  debug(...args: Parameters<LogFn>): void {
    this.made.debug(...args);
  }

  trace(...args: Parameters<LogFn>): void {
    this.made.trace(...args);
  }

  silent(...args: Parameters<LogFn>): void {
    this.made.silent(...args);
  }
}

async function createRateStore(ctx: ServiceContext, policy: RatePolicy, app: FastifyInstance): Promise<RateStore> {
  if (!ctx.config.redisUrl) return new MemoryRateStore(policy);
  const store = new RedisRateStore(ctx.config.redisUrl, policy, app.log);
  await store.connect();
  return store;
}
