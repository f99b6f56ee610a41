// Clients of MCP's 2024-11-05 HTTP+SSE transport, told to use Streamable HTTP. Such a client opens an
// event stream (GET /sse by convention, or GET on the URL it was given), waits for an `endpoint` event,
// then POSTs its messages there. This server speaks only stateless Streamable HTTP, so:
// - GET /mcp is a 405 (Streamable HTTP asks that of a server with no stream to offer), whose message
//   says where to go;
// - GET /sse completes the first step, naming /messages, and POST /messages answers every message
//   with a JSON-RPC error saying where to go. That is the one place such a client shows a server's
//   words: its first POST fails with the status and the body in the error it throws.
import type { FastifyInstance } from 'fastify';
import { PATHS } from '../shared/paths.js';

/** The sentence every refusal carries: what a legacy client, or the person behind it, must change. */
export function streamableHttpHint(baseUrl: string): string {
  return (
    'This server speaks MCP Streamable HTTP only (protocol 2025-03-26 and later), stateless, not the 2024-11-05 ' +
    `HTTP+SSE transport: use Streamable HTTP at ${baseUrl}${PATHS.mcp} (POST each JSON-RPC message there).`
  );
}

// JSON-RPC's implementation-defined server error: the message is well formed, the transport is not served.
const JSON_RPC_SERVER_ERROR = -32000;
// A client that reconnects when the stream ends is asked to wait a minute; it has its answer by then.
const RECONNECT_MS = 60_000;

export function registerLegacyTransport(app: FastifyInstance, baseUrl: string): void {
  const hint = streamableHttpHint(baseUrl);
  const config = { methodNotAllowedHint: hint };
  const stream = `: ${hint}\nretry: ${RECONNECT_MS}\nevent: endpoint\ndata: ${PATHS.legacyMcpMessages}\n\n`;

  app.get(PATHS.legacyMcpStream, { config }, (_request, reply) => reply.type('text/event-stream; charset=utf-8').send(stream));
  app.post(PATHS.legacyMcpMessages, { config }, (request, reply) =>
    reply
      .code(400)
      .type('application/json')
      .send({ jsonrpc: '2.0', id: requestId(request.body), error: { code: JSON_RPC_SERVER_ERROR, message: hint } }),
  );
}

/** The id of the JSON-RPC request in `body`, so the client can match the error to its request; else null. */
function requestId(body: unknown): string | number | null {
  try {
    const message: unknown = typeof body === 'string' ? JSON.parse(body) : body;
    const id = typeof message === 'object' && message !== null ? (message as { id?: unknown }).id : undefined;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}
