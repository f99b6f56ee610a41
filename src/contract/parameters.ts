// Request parameters of the operations, defined once for validation, OpenAPI and agent tool schemas.
import Type, { type Static } from 'typebox';
import { CveId, MAX_PROJECT_LENGTH, PAGE_LIMIT, RecordStatus } from './records.js';

export const MAX_CURSOR_LENGTH = 200;
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

/** The Atom feed's one parameter: the list filter's `project`. */
export const FeedQuery = Type.Object({ project: ListQuery.properties.project }, { additionalProperties: false });
export type FeedQuery = Static<typeof FeedQuery>;

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

export const ASK_LIMIT = { min: 1, max: 50, default: 10 } as const;
export const ASK_MODES = ['list'] as const;

const streamFlag = (description: string) => Type.Boolean({ description });

/** `/ask` parameters: the spec's `query` and `stream`, plus what NLWeb clients send. */
export const AskQuery = Type.Object(
  {
    query: Type.Optional(
      Type.String({
        maxLength: MAX_QUERY_LENGTH,
        description:
          'What to search for: CVE ids in any spelling, project names (typos and aliases tolerated), status words ' +
          '("public", "not yet public"), years ("since 2023") and free text. Defaults to `public CVE records`.',
      }),
    ),
    stream: Type.Optional(streamFlag('When true, the answer is a Server-Sent Events stream (also `true/false/1/0`).')),
    streaming: Type.Optional(streamFlag('NLWeb name of `stream`.')),
    limit: Type.Optional(
      Type.Integer({
        minimum: ASK_LIMIT.min,
        maximum: ASK_LIMIT.max,
        default: ASK_LIMIT.default,
        description: `Maximum number of results, ${ASK_LIMIT.min} to ${ASK_LIMIT.max}.`,
      }),
    ),
    query_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        pattern: '^[A-Za-z0-9._:-]+$',
        description: "NLWeb: the caller's id for this query, echoed in the answer; generated when absent.",
      }),
    ),
    site: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'NLWeb: the site to search. This service is one site; the value is accepted and not used.',
      }),
    ),
    prev: Type.Optional(
      Type.String({ maxLength: 2048, description: 'NLWeb: earlier queries of the conversation, comma-separated. Accepted and not used.' }),
    ),
    mode: Type.Optional(Type.Enum(ASK_MODES, { description: 'NLWeb answer mode. Only `list` is supported.' })),
    generate_mode: Type.Optional(Type.Enum(ASK_MODES, { description: 'NLWeb name of `mode`.' })),
  },
  { additionalProperties: false },
);
export type AskQuery = Static<typeof AskQuery>;

/** The NLWeb structured request body: `{"query": {"text": ...}, "prefer": {...}}`. */
export const AskStructuredBody = Type.Object(
  {
    query: Type.Object(
      {
        text: Type.Optional(Type.String({ maxLength: MAX_QUERY_LENGTH, description: 'What to search for.' })),
        site: Type.Optional(Type.String({ maxLength: 200 })),
        prev: Type.Optional(Type.Array(Type.String({ maxLength: MAX_QUERY_LENGTH }), { maxItems: 20 })),
      },
      { additionalProperties: false },
    ),
    prefer: Type.Optional(
      Type.Object(
        {
          streaming: Type.Optional(Type.Boolean()),
          mode: AskQuery.properties.mode,
          limit: Type.Optional(Type.Integer({ minimum: ASK_LIMIT.min, maximum: ASK_LIMIT.max })),
        },
        { additionalProperties: false },
      ),
    ),
    meta: Type.Optional(
      Type.Object(
        { query_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' })) },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: false, description: 'NLWeb structured request.' },
);
export type AskStructuredBody = Static<typeof AskStructuredBody>;

/** What `POST /ask` accepts: the GET parameters as a JSON object or a form, or the NLWeb structured body. */
export const AskPostBody = Type.Union([AskQuery, AskStructuredBody]);
