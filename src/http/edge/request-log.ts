import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * One structured line per request, written when the response is sent (the edge's onResponse hook): id,
 * method, route, status, duration and client address. (Fastify's default writes two lines per request,
 * which costs throughput.) The request id is written here, not bound in a child logger per request
 * (server.ts). Cookies and other headers are never logged.
 */
export function logRequest(request: FastifyRequest, reply: FastifyReply): void {
  request.log.info(
    {
      reqId: request.id,
      method: request.method,
      url: request.url,
      route: request.routeOptions.url ?? null,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
      client: request.client,
    },
    'request',
  );
}
