// A stopping server answers what it was sent and lets each client go. Once the stop begins, every answer
// says `Connection: close`, so a keep-alive client closes the connection after it instead of sending
// its next request into a socket that is about to be closed (which would reset it). New connections
// are refused by the closed listening socket; idle ones end at the keep-alive timeout.
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** From now on every answer closes its connection. */
    drain(): void;
  }
}

/** Declares `app.drain()`; answers whether it was called (the edge's onSend then closes every connection). */
export function registerDraining(app: FastifyInstance): () => boolean {
  let draining = false;
  app.decorate('drain', () => {
    draining = true;
  });
  return () => draining;
}
