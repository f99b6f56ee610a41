// A stopping server answers what it was sent and lets each client go. Once the stop begins, every answer
// says `Connection: close`, so a keep-alive client closes the connection after it instead of sending
// its next request into a socket that is about to be closed (which would reset it). New connections
// are refused by the closed listening socket; idle ones end at the keep-alive timeout. Streams, which
// would never finish on their own, end when the drain begins (their clients reconnect elsewhere).
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** From now on every answer closes its connection, and open streams end. */
    drain(): void;
    /** Calls `end` when the server starts draining: a stream that would never finish ends there. */
    onDrain(end: () => void): () => void;
  }
}

/** Declares `app.drain()`; answers whether it was called (the edge's onSend then closes every connection). */
export function registerDraining(app: FastifyInstance): () => boolean {
  let draining = false;
  const streams = new Set<() => void>();
  app.decorate('drain', () => {
    draining = true;
    for (const end of streams) end();
  });
  app.decorate('onDrain', (end: () => void) => {
    streams.add(end);
    return () => void streams.delete(end);
  });
  return () => draining;
}
