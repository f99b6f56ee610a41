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
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../edge/json-limits.js';
import type { SurfaceContext } from '../shared/context.js';
import { PATHS } from '../shared/paths.js';
import { registerLegacyTransport, streamableHttpHint } from './legacy-transport.js';
import { mcpServerFactory } from './mcp-server.js';
import { rebindingProtection } from './rebinding-protection.js';

const JSON_RPC_INVALID_REQUEST = -32600;

export const mcpSurface: FastifyPluginAsync<SurfaceContext> = async (app, ctx) => {
  // The SDK reports requests it rejects (an unknown protocol version, mismatched headers) and failures
  // to serve; the request log has their status, this line says why.
  const handler = createMcpHandler(mcpServerFactory(ctx, app.log), { onerror: (err) => app.log.info({ err }, 'mcp request not served') });
  app.addHook('onClose', () => handler.close());

  // The SDK reads the body itself: a malformed one is a JSON-RPC parse error, not a REST 400.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  for (const hook of rebindingProtection(ctx.config)) app.addHook('onRequest', hook);
  app.post(PATHS.mcp, { config: { methodNotAllowedHint: streamableHttpHint(ctx.config.baseUrl) } }, async (request, reply) => {
    if (typeof request.body === 'string' && nestsDeeperThan(request.body)) {
      // The SDK would copy and check such a message level by level until the stack overflows.
      const message = `Invalid Request: JSON nested deeper than ${MAX_JSON_DEPTH} levels.`;
      return reply
        .code(400)
        .type('application/json')
        .send({ jsonrpc: '2.0', id: null, error: { code: JSON_RPC_INVALID_REQUEST, message } });
    }
    return sendResponse(reply, await handler.fetch(toWebRequest(request, ctx.config.baseUrl)));
  });
  registerLegacyTransport(app, ctx.config.baseUrl);
};

function toWebRequest(request: FastifyRequest, baseUrl: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    for (const item of [value ?? []].flat()) headers.append(name, String(item));
  }
  return new Request(new URL(request.url, baseUrl), { method: request.method, headers, body: request.body as string });
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
