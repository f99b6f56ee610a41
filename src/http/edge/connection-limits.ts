// Limits on what a client may send and how slowly: bounded URL and header sizes, and timeouts that cut
// off clients who trickle their request (slow loris) or park idle connections. Failures Node detects
// before Fastify sees a request are still answered as one ErrorResponse.
import { STATUS_CODES, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { ServiceError, errorCatalog, type ErrorCode, type ErrorResponse } from '../../contract/index.js';
import type { Timeouts } from '../../config.js';
import { EXPOSED_HEADERS } from './cors.js';
import { sendError } from './error-handler.js';
import { generateRequestId } from './edge-headers.js';

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
      headersTimeout: timeouts.headersMs,
      maxHeaderSize: MAX_HEADER_BYTES,
      // Node checks the two timeouts on this interval; its 30 s default would let a slow client stay
      // that much longer than configured.
      connectionsCheckingInterval: Math.min(1000, timeouts.headersMs),
    },
  };
}

/** Answers what node:http rejects before routing (timeouts, oversized headers, malformed requests). */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request_timeout' : error.code === 'HPE_HEADER_OVERFLOW' ? 'headers_too_large' : 'bad_request';
  const requestId = generateRequestId();
  const body: ErrorResponse = { error: { code, message: errorCatalog[code].message }, requestId };
  const text = JSON.stringify(body);
  const status = errorCatalog[code].status;
  this.log.info({ reqId: requestId, client: socket.remoteAddress, status, code }, 'connection refused before routing');
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
        'Connection: close\r\n\r\n' +
        text,
    );
  }
  socket.destroy();
}

/** URLs longer than any real request get 414 before routing or parsing spends time on them. */
export function registerUrlLimit(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.length > MAX_URL_LENGTH) {
      sendError(request, reply, new ServiceError('uri_too_long', `The request URL is longer than ${MAX_URL_LENGTH} bytes.`));
    }
    done();
  });
}
