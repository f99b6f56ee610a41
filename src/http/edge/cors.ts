import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

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

/** Everyone may call the public API from a browser; it never takes credentials, so none are allowed. */
export async function registerCors(app: FastifyInstance): Promise<void> {
  await app.register(cors, {
    origin: '*',
    credentials: false,
    methods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
    // The agent surfaces' own headers too: browser MCP and A2A clients send them, and a preflight that
    // does not allow them fails the call.
    allowedHeaders: [
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
    ],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 86400,
    strictPreflight: false,
  });
}
