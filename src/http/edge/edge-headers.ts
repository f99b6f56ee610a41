import type { FastifyReply, FastifyRequest } from 'fastify';
import { flatText } from '../shared/flat-text.js';
import { CORS_HEADERS } from './cors.js';
import { addHeaderLines, headerLines, replaceableLine } from './header-block.js';

/**
 * What an API answer should say to a browser, the same on every response: no content sniffing, no
 * framing, no referrer, readable from any origin (the data is public), and no active content. One constant
 * block of lines (header-block.ts). The web pages set a policy of their own, which replaces the API's.
 */
const EDGE_LINES = flatText(
  headerLines({
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'cross-origin',
    ...CORS_HEADERS,
  }) + replaceableLine('content-security-policy', "default-src 'none'; frame-ancestors 'none'"),
);

/** Headers every response carries: its request id (ours, a UUID: request-id.ts) and the constant block. */
export function setEdgeHeaders(request: FastifyRequest, reply: FastifyReply): void {
  addHeaderLines(reply, `x-request-id: ${request.id}\r\n${EDGE_LINES}`);
}
