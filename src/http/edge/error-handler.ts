// Every failure leaves the service as one ErrorResponse: client mistakes detected by Fastify, errors
// the core raises, unknown paths, and anything unexpected (500, with no internals in the body).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, errorCatalog, ServiceError, validationFailure } from '../../contract/index.js';
import { setEdgeHeaders } from './edge-headers.js';

export function sendError(request: FastifyRequest, reply: FastifyReply, error: ServiceError): FastifyReply {
  return reply.code(errorCatalog[error.code].status).type('application/json; charset=utf-8').send(errorBody(error, request.id));
}

/** Translate what Fastify and its parsers throw into the catalog; null means "not a client mistake". */
export function toServiceError(error: FastifyError): ServiceError | null {
  if (error instanceof ServiceError) return error;
  if (error.validation) return validationFailure(error.validationContext, error.validation);
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ServiceError('unsupported_media_type', 'The request body must be sent as `Content-Type: application/json`.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ServiceError('body_too_large');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ServiceError('invalid_json', 'The request body is empty; it must be a JSON object.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ServiceError('invalid_json');
    case 'FST_ERR_BAD_URL':
      return new ServiceError('not_found', 'The URL could not be decoded.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ServiceError('not_found', 'A path segment is longer than any resource name here.');
  }
  if (error instanceof SyntaxError || error.statusCode === 400) {
    return error instanceof SyntaxError
      ? new ServiceError('invalid_json', `The request body is not valid JSON: ${error.message}`)
      : new ServiceError('bad_request');
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new ServiceError('bad_request');
  }
  return null;
}

/**
 * Errors Fastify raises before any hook runs (an undecodable URL, an overlong path parameter). The
 * onRequest hooks never ran for them, so the edge headers are set here.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  setEdgeHeaders(request, reply);
  sendError(request, reply, toServiceError(error) ?? new ServiceError('not_found'));
}

function notFound(request: FastifyRequest): ServiceError {
  return new ServiceError('not_found', `There is no endpoint at ${request.method} ${request.url.split('?')[0]}.`);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // Fastify reads the body before it knows there is no route; the missing endpoint is the answer.
    if (request.is404) return sendError(request, reply, notFound(request));
    const mapped = toServiceError(error);
    if (mapped) return sendError(request, reply, mapped);
    request.log.error({ err: error }, 'unexpected failure');
    return sendError(request, reply, new ServiceError('internal_error'));
  });
  app.setNotFoundHandler((request, reply) => sendError(request, reply, notFound(request)));
}
