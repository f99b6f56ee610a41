import Type, { type Static } from 'typebox';
import { ERROR_CODES } from './error-catalog.js';

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
