import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Ids are always ours: a caller-chosen id could collide with another caller's in our logs. */
export const generateRequestId = (): string => randomUUID();

/**
 * Headers every response carries: its request id, and what an API answer should say to a browser: no
 * content sniffing, no framing, no active content, no referrer, and readable from any origin (the data
 * is public). The web page, when it exists, sets its own Content-Security-Policy.
 */
export function setEdgeHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'DENY');
  reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
  reply.header('referrer-policy', 'no-referrer');
  reply.header('cross-origin-resource-policy', 'cross-origin');
}

export function registerEdgeHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    setEdgeHeaders(request, reply);
    done();
  });
}
