// Fastify route options derived from an operation of the contract.
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { type Operation, routerPath, ServiceError } from '../../contract/index.js';

type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;

export function operationRoute(operation: Operation, handler: Handler): RouteOptions {
  return {
    method: operation.method,
    url: routerPath(operation.path),
    // Path parameters are not validated: a malformed record id is answered like an unknown one (404).
    schema: {
      ...(operation.query ? { querystring: operation.query } : {}),
      ...(operation.headers ? { headers: operation.headers } : {}),
      ...(operation.body ? { body: operation.body } : {}),
      // Answers of another media type (the export, the feeds) are bytes the handler makes, not objects to serialize.
      ...(operation.success.mediaType ? {} : { response: { 200: operation.success.schema } }),
    },
    config: { caching: operation.caching },
    ...(operation.query ? { preValidation: rejectRepeatedParameters } : {}),
    handler,
  };
}

/** `?status=public&status=public` is a mistake worth naming, not a silent "last one wins". */
export function rejectRepeatedParameters(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  const query = request.query as Record<string, unknown>;
  for (const name in query) {
    if (Array.isArray(query[name])) {
      done(new ServiceError('repeated_parameter', `Query parameter "${name}" is given more than once.`, { parameter: name }));
      return;
    }
  }
  done();
}

export function operation(operations: readonly Operation[], id: Operation['operationId']): Operation {
  const found = operations.find((op) => op.operationId === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
}
