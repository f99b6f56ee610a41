// Request parameters of the operations, defined once for validation, OpenAPI and agent tool schemas.
import Type, { type Static } from 'typebox';
import { SEVERITIES } from './details.js';
import { CveId, MAX_PROJECT_LENGTH, PAGE_LIMIT, RecordStatus } from './records.js';

export const MAX_CURSOR_LENGTH = 200;
export const MAX_QUERY_LENGTH = 512;

/** What a search query may say, in the words every description of a search (REST, MCP, A2A) uses. */
export const QUERY_READING =
  'CVE ids in any spelling, project names (typos and aliases tolerated), vendors ("cisco", "qualcomm"), status words ' +
  '("public", "not yet public"), years ("in 2024", "since 2023"), publication dates ("since March 2024", "last month", ' +
  '"recent"), severity ("critical", "high severity", "cvss 9"), exploitation ("actively exploited", "in KEV"), weaknesses ' +
  '("CWE-79", "xss", "sqli", "rce"), a version beside a project ("openssl 3.0.7": the records saying it is affected) and ' +
  'free text, in everyday wording ("problems in fortinet products")';

/** The longest version the version filters take: real versions are far shorter, and each check reads it once per range. */
export const MAX_VERSION_PARAMETER_LENGTH = 128;
/** A version: letters, digits and the separators versions use (`1.0.0-rc.1+build`, `0:4.18.0-553.el8_10`, `2.0~beta`). */
export const VERSION_PATTERN = '^[0-9A-Za-z][0-9A-Za-z._+~:^-]*$';

/** The longest package URL and CPE name the filters take: real ones are far shorter. */
export const MAX_PURL_LENGTH = 512;
export const MAX_CPE_LENGTH = 512;

/** `purl`, in the list's query and in a batch check. */
export const PurlParameter = Type.String({
  minLength: 5,
  maxLength: MAX_PURL_LENGTH,
  pattern: '^pkg:[^\\s]+$',
  description:
    "A package URL (purl), matched to the records' affected packages by `collectionURL` and `packageName`, for the " +
    'ecosystems the records use: `npm`, `pypi`, `maven`, `golang`, `cargo`, `nuget`, `gem`, `composer`, and WordPress ' +
    'as `pkg:wordpress/plugin/<slug>` or `pkg:wordpress/theme/<slug>`. With a version (`pkg:pypi/apache-airflow@2.7.0`) ' +
    'only the records that say it is affected.',
  examples: ['pkg:pypi/apache-airflow@2.7.0'],
});

/** `cpe`, in the list's query and in a batch check. */
export const CpeParameter = Type.String({
  minLength: 8,
  maxLength: MAX_CPE_LENGTH,
  pattern: '^cpe:2\\.3:[^\\s]+$',
  description:
    "A CPE 2.3 formatted string matched against the records' CPE names: `*` matches any value and `-` only `-` " +
    '(and `*`), other values by equal text, a vendor or a product required. With a version attribute only the records ' +
    'that say it is affected: a CPE name with that very version, or the ranges of the product it names.',
  examples: ['cpe:2.3:a:openssl:openssl:3.0.7:*:*:*:*:*:*:*'],
});

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
    severity: Type.Optional(
      Type.Enum([...SEVERITIES], {
        description:
          "Only records whose highest CVSS severity (the details' `severity`) is this one; records without a CVSS score have none.",
      }),
    ),
    kev: Type.Optional(
      Type.Boolean({
        description: "`true`: only records in CISA's Known Exploited Vulnerabilities catalog; `false`: only records not in it.",
      }),
    ),
    cwe: Type.Optional(
      Type.String({
        pattern: '^[Cc][Ww][Ee]-[0-9]{1,7}$',
        maxLength: 11,
        description: 'Only records naming this weakness among their problem types, e.g. `CWE-79` (any case).',
      }),
    ),
    published_since: Type.Optional(
      Type.String({ format: 'date', description: 'Only records published on this day (UTC) or later, e.g. `2024-01-01`.' }),
    ),
    published_before: Type.Optional(
      Type.String({
        format: 'date',
        description: 'Only records published before this day (UTC). Either date filter leaves out records with no publication date.',
      }),
    ),
    version: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_VERSION_PARAMETER_LENGTH,
        pattern: VERSION_PATTERN,
        description:
          'With `project` (or a `purl` or `cpe` without a version): only records whose affected entries for it say this version is affected, by the CVE JSON 5 ' +
          'rules for their `versionType` (semver, custom dotted numbers, rpm, maven, python; git by exact commit), e.g. `3.0.7`.',
        examples: ['3.0.7'],
      }),
    ),
    include_unknown: Type.Optional(
      Type.Boolean({
        description:
          'With `version`: `true` also lists records that cannot tell whether the version is affected (a range of an unreadable type, a git commit they do not name).',
      }),
    ),
    purl: Type.Optional(PurlParameter),
    cpe: Type.Optional(CpeParameter),
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
