// Limits on what a client may send and how slowly: bounded URL and header sizes, and timeouts that cut
// off clients who trickle their request (slow loris) or park idle connections. Failures Node detects
// before Fastify sees a request are still answered as one ErrorResponse.
import { type IncomingMessage, type ServerOptions, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Timeouts } from '../../config.js';
import { type ErrorCode, errorBody, errorCatalog, ServiceError } from '../../contract/index.js';
import { EXPOSED_HEADERS } from './cors.js';
import { sendError } from './error-handler.js';
import { HeaderBlockResponse } from './header-block.js';
import { generateRequestId } from './request-id.js';

export const MAX_URL_LENGTH = 8 * 1024;
export const MAX_HEADER_BYTES = 16 * 1024;

/** Fastify and node:http options for the timeouts and header limit. */
export function connectionOptions(timeouts: Timeouts): Pick<FastifyServerOptions, 'requestTimeout' | 'keepAliveTimeout'> & {
  http: ServerOptions;
} {
  return {
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      // The edge's headers go out as one block of lines (header-block.ts).
      ServerResponse: HeaderBlockResponse,
      headersTimeout: timeouts.headersMs,
      maxHeaderSize: MAX_HEADER_BYTES,
      // Node checks the two timeouts on this interval; its 30 s default would let a slow client stay
      // that much longer than configured.
      connectionsCheckingInterval: Math.min(1000, timeouts.headersMs),
      // Node's own answer to a request without Host is a bare 400 with no body or request id; such a
      // request is let through and refused by checkRequest as an ErrorResponse instead.
      requireHostHeader: false,
    },
  };
}

/**
 * Answers on the socket itself, for what node:http handles before any route: the same ErrorResponse
 * and headers as every other answer, then the connection is closed.
 */
export function answerOnSocket(
  socket: Socket | Duplex,
  code: ErrorCode,
  log: FastifyBaseLogger,
  message?: string,
  headers: Record<string, string> = {},
): void {
  const requestId = generateRequestId();
  const text = JSON.stringify(errorBody(new ServiceError(code, message), requestId));
  const status = errorCatalog[code].status;
  log.info({ reqId: requestId, client: (socket as Socket).remoteAddress, status, code }, 'connection refused before routing');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(text)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Access-Control-Allow-Origin: *\r\n' +
        `Access-Control-Expose-Headers: ${EXPOSED_HEADERS.join(', ')}\r\n` +
        'Cache-Control: no-store\r\n' +
        Object.entries(headers)
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('') +
        'Connection: close\r\n\r\n' +
        text,
    );
  }
  socket.destroy();
}

/** Answers what node:http rejects before routing (timeouts, oversized headers, malformed requests). */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 'request_timeout'
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? 'headers_too_large'
        : 'bad_request';
  answerOnSocket(socket, code, this.log);
}

/**
 * What node:http would answer on its own, answered by the service: an `Expect` other than
 * 100-continue (RFC 9110 lets a server ignore an expectation it does not know, and that is what the
 * request gets rather than a bare 417), and CONNECT, which this service never tunnels (405, not a
 * connection closed without a word).
 */
export function registerServerEvents(app: FastifyInstance): void {
  app.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => app.server.emit('request', request, response));
  app.server.on('connect', (_request: IncomingMessage, socket: Duplex) =>
    answerOnSocket(socket, 'method_not_allowed', app.log, 'CONNECT is not supported: this service is not a proxy.', {
      Allow: 'GET, HEAD, POST, OPTIONS',
    }),
  );
}

/**
 * Before routing: URLs longer than any real request get 414 before routing or parsing spends time on
 * them, and an HTTP/1.1 request that names no host is refused, as HTTP/1.1 requires (RFC 9112 §3.2).
 */
export function checkRequest(request: FastifyRequest, reply: FastifyReply): void {
  if (request.url.length > MAX_URL_LENGTH) {
    sendError(request, reply, new ServiceError('uri_too_long', `The request URL is longer than ${MAX_URL_LENGTH} bytes.`));
  } else if (request.headers.host === undefined && request.raw.httpVersionMajor === 1 && request.raw.httpVersionMinor >= 1) {
    sendError(request, reply, new ServiceError('bad_request', 'An HTTP/1.1 request must name the host it is for in a `Host` header.'));
  }
}
