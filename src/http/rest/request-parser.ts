// An open change stream holds its connection for hours and reads nothing more from it: its request has been
// read and its answer says `connection: close`. Node keeps the connection's HTTP parser all the while, as for
// any connection that may send another request: about 10 KB of native memory each in Node 24, half of what
// an open stream cost the server (docs/PERFORMANCE.md, "Issue 25: what an open change stream costs"). Node
// gives the parser back itself when a connection is upgraded (a WebSocket); this takes the same steps for a
// stream, so a thousand open streams share the few parsers of the requests being read.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';

type Listener = (...args: unknown[]) => void;

/** Node's own release of a connection's parser: back to its pool, the socket read by JavaScript again. */
const { freeParser } = createRequire(import.meta.url)('_http_common') as {
  freeParser(parser: object, request: IncomingMessage, socket: Socket): void;
};

/**
 * The server's listeners that hand the parser what the client sends and finish it at the end (Node binds them
 * to the parser, and its upgrade path removes them before freeing it): [event, the bound function's name].
 */
const PARSER_LISTENERS = [
  ['data', 'bound socketOnData'],
  ['end', 'bound socketOnEnd'],
] as const;

/**
 * Gives back the request parser of a response whose connection ends with it, once its request has been read
 * whole (one that came in pieces keeps its parser, as before). A Node whose listeners are not found keeps its
 * parser too (nothing is released half-way); the stream test reads `socket.parser` on a real connection, so
 * such a Node fails the tests, not the server.
 */
export function releaseRequestParser(response: ServerResponse): void {
  const socket = response.socket as (Socket & { parser?: object | null }) | null;
  const parser = socket?.parser;
  if (!socket || !parser || !response.req.complete) return;
  const found = PARSER_LISTENERS.map(([event, name]) => ({ event, listener: socket.listeners(event).find((l) => l.name === name) }));
  if (found.some(({ listener }) => listener === undefined)) return;
  for (const { event, listener } of found) socket.removeListener(event, listener as Listener);
  // What the client sends from now on is dropped; its end ends the connection, as the server's listener did.
  socket.on('end', () => socket.end());
  freeParser(parser, response.req, socket);
}
