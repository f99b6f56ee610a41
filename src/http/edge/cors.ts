// CORS for a public API that takes no credentials: every answer is readable from any origin, and every
// preflight is answered the same way. A few lines rather than @fastify/cors, whose per-request origin
// resolution (for options this service does not use) showed in the get-one profile: the simple-request
// headers are constant and go out in the edge's header block (edge-headers.ts).
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Response headers a cross-origin caller must be able to read. */
export const EXPOSED_HEADERS = [
  'X-Request-Id',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
  'RateLimit',
  'Retry-After',
  'Link',
  'Deprecation',
  'Sunset',
  'ETag',
  'Allow',
];

/** What every answer says to a browser: readable from any origin, with these headers. */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS.join(', '),
} as const;

/** What a preflight is answered with, whatever it asks: the methods and request headers allowed. */
const PREFLIGHT_HEADERS = {
  'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
  // The agent surfaces' own headers too: browser MCP and A2A clients send them, and a preflight that
  // does not allow them fails the call.
  'access-control-allow-headers': [
    'Content-Type',
    'Idempotency-Key',
    'If-None-Match',
    'Accept',
    'MCP-Protocol-Version',
    'Mcp-Session-Id',
    'Mcp-Method',
    'Mcp-Name',
    'Last-Event-ID',
    'A2A-Version',
    'A2A-Extensions',
  ].join(', '),
  'access-control-max-age': '86400',
  'content-length': '0',
} as const;

/**
 * Every OPTIONS request is a preflight (204), answered by the edge's onRequest hook (edge.ts) before the
 * rate limit counts it: browsers send preflights on their own.
 */
export function answerPreflight(reply: FastifyReply): void {
  reply.code(204).headers(PREFLIGHT_HEADERS).send();
}

/** The OPTIONS route exists so that any path routes to the edge's hooks rather than to the 404 handler; its handler is never reached. */
export function registerPreflightRoute(app: FastifyInstance): void {
  app.options('*', (_request, reply) => reply.callNotFound());
}
