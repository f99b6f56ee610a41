import type { FastifyInstance } from 'fastify';

/**
 * One structured line per request, written when the response is sent: id, method, route, status,
 * duration and client address. (Fastify's default writes two lines per request, which costs throughput.)
 * Cookies and other headers are never logged.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        client: request.client,
      },
      'request',
    );
    done();
  });
}
