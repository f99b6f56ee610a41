import Type, { type Static } from 'typebox';
import { ERROR_CODES, type ServiceError } from './error-catalog.js';

export const ErrorResponse = Type.Object(
  {
    error: Type.Object(
      {
        code: Type.String({ description: 'Stable machine-readable code.', examples: [...ERROR_CODES] }),
        message: Type.String({ description: 'Human-readable explanation.' }),
        details: Type.Optional(Type.Unknown({ description: 'Structured detail, depending on the code.' })),
      },
      { additionalProperties: false },
    ),
    requestId: Type.String({ description: 'Identifier of the request, also sent as `X-Request-Id`.' }),
  },
  { additionalProperties: false },
);
export type ErrorResponse = Static<typeof ErrorResponse>;

/**
 * The one ErrorResponse body of a failure, whoever renders it: the edge, an answer written on the socket
 * before routing, an MCP tool error (its `error` member), the /ask stream's error event.
 */
export function errorBody(error: ServiceError, requestId: string): ErrorResponse {
  return { error: errorMember(error), requestId };
}

/** The `error` member alone, for a renderer that carries the request id elsewhere or not at all. */
export function errorMember(error: ServiceError): ErrorResponse['error'] {
  return { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) };
}
