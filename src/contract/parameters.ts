// Request parameters of the operations, defined once for validation, OpenAPI and agent tool schemas.
import Type, { type Static } from 'typebox';
import { CveId, PAGE_LIMIT, RecordStatus } from './records.js';

export const MAX_CURSOR_LENGTH = 200;
export const MAX_PROJECT_LENGTH = 200;
export const MAX_QUERY_LENGTH = 512;

export const ListQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: PAGE_LIMIT.min,
        maximum: PAGE_LIMIT.max,
        default: PAGE_LIMIT.default,
        description: `Maximum number of records to return, ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}.`,
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_CURSOR_LENGTH,
        description: "Opaque cursor from the previous page's `pagination.nextCursor`. Pass the same filters with it.",
      }),
    ),
    project: Type.Optional(
      Type.String({ minLength: 1, maxLength: MAX_PROJECT_LENGTH, description: 'Exact, case-sensitive project name.' }),
    ),
    status: Type.Optional(RecordStatus),
  },
  { additionalProperties: false },
);
export type ListQuery = Static<typeof ListQuery>;

export const RecordIdParams = Type.Object({ recordId: CveId }, { additionalProperties: false });

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const BatchHeaders = Type.Object({
  [IDEMPOTENCY_KEY_HEADER]: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Optional caller correlation key, 1 to 255 characters. It never changes the result.',
    }),
  ),
});

export const AskQuery = Type.Object(
  {
    query: Type.Optional(
      Type.String({
        maxLength: MAX_QUERY_LENGTH,
        description: 'A CVE identifier, project or publication status to search for. Defaults to `public CVE records`.',
      }),
    ),
    stream: Type.Optional(
      Type.Boolean({ default: false, description: 'When true, the answer is a Server-Sent Events stream.' }),
    ),
  },
  { additionalProperties: false },
);
export type AskQuery = Static<typeof AskQuery>;
