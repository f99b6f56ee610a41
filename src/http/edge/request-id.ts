import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** Ids are always ours: a caller-chosen id could collide with another caller's in our logs. */
export const generateRequestId = (): string => randomUUID();

/** Headers every response carries: its request id, and no content sniffing of JSON or Markdown. */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    done();
  });
}
