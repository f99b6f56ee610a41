// The start of every Server-Sent Events answer (/ask's stream, the change stream): the socket is taken
// from Fastify, so the headers the edge has set so far (request id, CORS, rate limit) are written by hand.
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

export function openEventStreamResponse(reply: FastifyReply): ServerResponse {
  reply.hijack();
  reply.raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    // Proxies such as nginx would otherwise hold events back until their buffer fills.
    'x-accel-buffering': 'no',
  });
  return reply.raw;
}
