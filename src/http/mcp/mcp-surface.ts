// POST /mcp: MCP over stateless Streamable HTTP, both protocol eras from one handler. The SDK's
// createMcpHandler serves 2026-07-28 requests (per-request `_meta`, server/discover) and falls back
// to stateless 2025-era serving (initialize, then one request per POST) for older clients. Clients of
// the 2024-11-05 HTTP+SSE transport are told to use this one (legacy-transport.ts).
//
// The handler is web-standard (Request in, Response out). Its answer goes out through the reply, so the
// edge (request id, rate-limit, security and caching headers, compression, request log) wraps it like
// any route; hijacking the socket for a Node adapter would bypass it.
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_STREAMS } from '../../config.js';
import { errorCatalog, ServiceError } from '../../contract/index.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../edge/json-limits.js';
import { StreamLimits } from '../edge/stream-limits.js';
import type { SurfaceContext } from '../shared/context.js';
import { PATHS } from '../shared/paths.js';
import { registerLegacyTransport, streamableHttpHint } from './legacy-transport.js';
import { mcpServerFactory } from './mcp-server.js';
import { rebindingProtection } from './rebinding-protection.js';
import { SubscriptionBus } from './subscription-bus.js';
import { listenRequest, MAX_SUBSCRIBED_URIS, ResourceSubscriptions } from './subscriptions.js';

const JSON_RPC_INVALID_REQUEST = -32600;
const JSON_RPC_INVALID_PARAMS = -32602;
// JSON-RPC's implementation-defined server error: a well-formed request refused for the load it brings.
const JSON_RPC_SERVER_ERROR = -32000;

export const mcpSurface: FastifyPluginAsync<SurfaceContext> = async (app, ctx) => {
  const settings = ctx.config.streams ?? DEFAULT_STREAMS;
  // The SDK reports requests it rejects (an unknown protocol version, mismatched headers) and failures
  // to serve; the request log has their status, this line says why.
  const onerror = (err: Error) => app.log.info({ err }, 'mcp request not served');
  const bus = new SubscriptionBus(onerror);
  const handler = createMcpHandler(mcpServerFactory(ctx, app.log), { onerror, bus, keepAliveMs: settings.keepAliveMs });
  // A subscription holds a connection as a change stream does, so each address may hold as many
  // (counted apart from its change streams); the SDK bounds them all together (maxSubscriptions).
  const limits = new StreamLimits(settings.perAddress);
  const subscriptions = new ResourceSubscriptions(ctx.changes, bus, handler.notify);
  // Without the draining layer (the edge benchmark's ablations), subscriptions end only when the server closes.
  const stopDraining = app.hasDecorator('onDrain') ? app.onDrain(() => subscriptions.endAll()) : () => {};
  app.addHook('preClose', (done) => {
    stopDraining();
    subscriptions.close();
    done();
  });
  app.addHook('onClose', () => handler.close());

  // The SDK reads the body itself: a malformed one is a JSON-RPC parse error, not a REST 400.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  for (const hook of rebindingProtection(ctx.config)) app.addHook('onRequest', hook);
  app.post(PATHS.mcp, { config: { methodNotAllowedHint: streamableHttpHint(ctx.config.baseUrl) } }, async (request, reply) => {
    if (typeof request.body === 'string' && nestsDeeperThan(request.body)) {
      // The SDK would copy and check such a message level by level until the stack overflows.
      return refuse(reply, 400, null, JSON_RPC_INVALID_REQUEST, `Invalid Request: JSON nested deeper than ${MAX_JSON_DEPTH} levels.`);
    }
    const listen = typeof request.body === 'string' ? listenRequest(request.body) : undefined;
    if (listen === undefined) return sendResponse(reply, await handler.fetch(toWebRequest(request, ctx.config.baseUrl)));
    if (listen.uris.length > MAX_SUBSCRIBED_URIS) {
      const message = `Invalid params: a subscription names at most ${MAX_SUBSCRIBED_URIS} resource URIs; open another for more.`;
      return refuse(reply, 400, listen.id, JSON_RPC_INVALID_PARAMS, message);
    }
    let release: () => void;
    try {
      release = limits.admit(request, reply);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      return refuse(reply, errorCatalog[error.code].status, listen.id, JSON_RPC_SERVER_ERROR, error.message);
    }
    // The stream lives as long as the response: its end, however it comes, releases the address's share
    // and aborts the request, on which the SDK stops the stream and unsubscribes it from the bus.
    const stream = new AbortController();
    const close = subscriptions.open(stream);
    reply.raw.once('close', () => {
      release();
      close();
    });
    const served = bus.within(listen.uris, () => handler.fetch(toWebRequest(request, ctx.config.baseUrl, stream.signal)));
    return sendResponse(reply, await served);
  });
  registerLegacyTransport(app, ctx.config.baseUrl);
};

/** Answers a request the SDK is not given with a JSON-RPC error, under an HTTP status that says why. */
function refuse(reply: FastifyReply, status: number, id: string | number | null, code: number, message: string): FastifyReply {
  return reply.code(status).type('application/json').send({ jsonrpc: '2.0', id, error: { code, message } });
}

function toWebRequest(request: FastifyRequest, baseUrl: string, signal?: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    for (const item of [value ?? []].flat()) headers.append(name, String(item));
  }
  return new Request(new URL(request.url, baseUrl), { method: request.method, headers, body: request.body as string, signal });
}

/**
 * Status and headers are set on the reply rather than left inside a Response, which an onSend hook
 * that takes over the body (compression) would unwrap and drop. An event stream is passed on as it
 * comes; a JSON answer is read whole, so it gets a length and the compression threshold applies.
 */
async function sendResponse(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  reply.code(response.status);
  response.headers.forEach((value, name) => void reply.header(name, value));
  if (response.body === null) return reply.send();
  const streaming = response.headers.get('content-type')?.startsWith('text/event-stream');
  return reply.send(streaming ? response.body : Buffer.from(await response.arrayBuffer()));
}
