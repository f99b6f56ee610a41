import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Ids are always ours: a caller-chosen id could collide with another caller's in our logs. */
export const generateRequestId = (): string => randomUUID();

/** Headers every response carries: its request id, and no content sniffing of JSON or Markdown. */
export function setEdgeHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  reply.header('x-content-type-options', 'nosniff');
}

export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    setEdgeHeaders(request, reply);
    done();
  });
}
