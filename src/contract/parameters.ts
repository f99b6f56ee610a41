// Request parameters of the operations, defined once for validation, OpenAPI and agent tool schemas.
import Type, { type Static } from 'typebox';
import { filterProperties, LIST_FILTERS, type ListFilterTable } from './list-filters.js';
import { CveId, PAGE_LIMIT } from './records.js';

export const MAX_CURSOR_LENGTH = 200;
export const MAX_QUERY_LENGTH = 512;

/** What a search query may say, in the words every description of a search (REST, MCP, A2A) uses. */
export const QUERY_READING =
  'CVE ids in any spelling, project names (typos and aliases tolerated), vendors ("cisco", "qualcomm"), status words ' +
  '("public", "not yet public"), years ("in 2024", "since 2023"), publication dates ("since March 2024", "last month", ' +
  '"recent"), severity ("critical", "high severity", "cvss 9"), exploitation ("actively exploited", "in KEV"), weaknesses ' +
  '("CWE-79", "xss", "sqli", "rce"), a version beside a project ("openssl 3.0.7": the records saying it is affected) and ' +
  'free text, in everyday wording ("problems in fortinet products")';

/** The list's query with a table of filters: the list's own, or a test's table with one more. */
export const listQueryOf = <T extends ListFilterTable>(filters: T) =>
  Type.Object(
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
      ...filterProperties(filters),
    },
    { additionalProperties: false },
  );
export const ListQuery = listQueryOf(LIST_FILTERS);
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

/** NLWeb's answer modes. Only `list` is answered; the others fall back to it and the answer says so. */
export const ASK_MODES = ['list', 'none', 'summarize', 'generate'] as const;
const modeName = `(?:${ASK_MODES.join('|')})`;

const streamFlag = (description: string) => Type.Boolean({ description });
const queryId = (description?: string) =>
  Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$', ...(description ? { description } : {}) });
const ignoredText = (maxLength: number, description: string) => Type.Optional(Type.String({ maxLength, description }));
const mode = (description: string) =>
  Type.Optional(
    Type.String({
      maxLength: 100,
      pattern: `^\\s*${modeName}(?:\\s*,\\s*${modeName})*\\s*$`,
      description,
    }),
  );

/** `/ask` parameters: the spec's `query` and `stream`, plus what NLWeb clients send. */
export const AskQuery = Type.Object(
  {
    query: Type.Optional(
      Type.String({
        maxLength: MAX_QUERY_LENGTH,
        description: `What to search for: ${QUERY_READING}. Defaults to \`public CVE records\`.`,
      }),
    ),
    stream: Type.Optional(streamFlag('When true, the answer is a Server-Sent Events stream (also `true/false/1/0`).')),
    streaming: Type.Optional(
      streamFlag(
        'NLWeb name of `stream`. A request that uses it speaks NLWeb: its JSON results are NLWeb items, with ' +
          '`description` and `schema_object` as in the stream.',
      ),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: ASK_LIMIT.min,
        maximum: ASK_LIMIT.max,
        default: ASK_LIMIT.default,
        description: `Maximum number of results, ${ASK_LIMIT.min} to ${ASK_LIMIT.max}.`,
      }),
    ),
    query_id: Type.Optional(queryId("NLWeb: the caller's id for this query, echoed in the answer; generated when absent.")),
    decontextualized_query: Type.Optional(
      Type.String({
        maxLength: MAX_QUERY_LENGTH,
        description: 'NLWeb: the query restated on its own, without the conversation. When not blank it is searched instead of `query`.',
      }),
    ),
    site: Type.Optional(
      Type.String({
        maxLength: 200,
        description:
          'NLWeb: the site to search. This service is one site (see `/sites`); `all` or its name are honoured, any other is ignored.',
      }),
    ),
    mode: mode(
      'NLWeb answer mode, or several comma-separated: `list`, `none`, `summarize`, `generate`. The answer is always a ' +
        'list; another mode is reported in `requested_mode`.',
    ),
    generate_mode: mode('NLWeb name of `mode`.'),
    display_mode: ignoredText(100, 'NLWeb UI display mode (`full`, …). Accepted and ignored.'),
    prev: ignoredText(16384, 'NLWeb: earlier queries of the conversation (comma-separated or a JSON array). Accepted and ignored.'),
    last_ans: ignoredText(8192, 'NLWeb: earlier answers (a JSON array of `{title, url}`). Accepted and ignored.'),
    item_to_remember: ignoredText(2048, 'NLWeb: something the user asked to remember. Accepted and ignored.'),
    context_url: ignoredText(2048, 'NLWeb: the page the user is on. Accepted and ignored.'),
    thread_id: ignoredText(200, 'NLWeb: the conversation id. Accepted and ignored.'),
    conversation_id: ignoredText(200, 'NLWeb: the conversation id. Accepted and ignored.'),
    parent_query_id: ignoredText(200, 'NLWeb: the query this one follows. Accepted and ignored.'),
    user_id: ignoredText(200, 'NLWeb: the user. Accepted and ignored.'),
    db: ignoredText(200, 'NLWeb: the retrieval backend. Accepted and ignored.'),
    model: ignoredText(200, 'NLWeb: the language model. Accepted and ignored (no model is used).'),
    response_format: ignoredText(100, 'NLWeb 0.54: `conv_search` or `chatgpt_app`. Accepted and ignored.'),
  },
  { additionalProperties: false },
);
export type AskQuery = Static<typeof AskQuery>;

/**
 * Parameters NLWeb's reference UIs and clients send that this service accepts but cannot honour: the
 * conversation (`prev`, `last_ans`, `item_to_remember`, `thread_id`, …), display and backend choices.
 * An answer names the ones a request carried in `ignored`, so that a client can tell.
 */
export const NLWEB_IGNORED_PARAMETERS = [
  'display_mode',
  'prev',
  'last_ans',
  'item_to_remember',
  'context_url',
  'thread_id',
  'conversation_id',
  'parent_query_id',
  'user_id',
  'db',
  'model',
  'response_format',
] as const satisfies readonly (keyof AskQuery)[];

/**
 * The NLWeb structured request body of the newer protocol:
 * `{"query": {"text": …}, "context": {"prev": […]}, "prefer": {…}, "meta": {…}}`.
 */
export const AskStructuredBody = Type.Object(
  {
    query: Type.Object(
      {
        text: Type.Optional(Type.String({ maxLength: MAX_QUERY_LENGTH, description: 'What to search for.' })),
        site: AskQuery.properties.site,
        num_results: Type.Optional(Type.Integer({ minimum: ASK_LIMIT.min, maximum: ASK_LIMIT.max, description: 'Same as `limit`.' })),
        decontextualized_query: AskQuery.properties.decontextualized_query,
        prev: Type.Optional(
          Type.Array(Type.String({ maxLength: MAX_QUERY_LENGTH }), { maxItems: 20, description: 'Older form of `context.prev`.' }),
        ),
      },
      { additionalProperties: false },
    ),
    context: Type.Optional(
      Type.Object(
        {
          '@type': Type.Optional(Type.String({ maxLength: 100 })),
          prev: Type.Optional(
            Type.Array(Type.String({ maxLength: MAX_QUERY_LENGTH }), {
              maxItems: 20,
              description: 'Earlier queries. Accepted and ignored.',
            }),
          ),
        },
        { additionalProperties: true, description: 'The conversation so far. Accepted and ignored (reported as `prev`).' },
      ),
    ),
    prefer: Type.Optional(
      Type.Object(
        {
          streaming: Type.Optional(Type.Boolean()),
          mode: AskQuery.properties.mode,
          limit: Type.Optional(Type.Integer({ minimum: ASK_LIMIT.min, maximum: ASK_LIMIT.max })),
          response_format: AskQuery.properties.response_format,
        },
        { additionalProperties: false },
      ),
    ),
    meta: Type.Optional(
      Type.Object(
        { query_id: Type.Optional(queryId()), api_version: Type.Optional(Type.String({ maxLength: 20 })) },
        { additionalProperties: true, description: 'Request metadata; only `query_id` is read.' },
      ),
    ),
  },
  { additionalProperties: false, description: 'NLWeb structured request.' },
);
export type AskStructuredBody = Static<typeof AskStructuredBody>;

/** `/sites`: NLWeb UIs ask `/sites?streaming=false`. */
export const SitesQuery = Type.Object(
  { streaming: Type.Optional(streamFlag('Accepted for NLWeb clients; the answer is JSON either way.')) },
  { additionalProperties: false },
);

/** What `POST /ask` accepts: the GET parameters as a JSON object or a form, or the NLWeb structured body. */
export const AskPostBody = Type.Union([AskQuery, AskStructuredBody]);
