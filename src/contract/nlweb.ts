// NLWeb-compatible search resources of `/ask` and `/sites`.
import Type, { type Static, type TSchema } from 'typebox';
import { RecordStatus } from './records.js';

export const NlwebResult = Type.Object(
  {
    url: Type.String({ format: 'uri' }),
    name: Type.String(),
    site: Type.String(),
    score: Type.Number({ minimum: 0, maximum: 1 }),
    snippet: Type.String(),
  },
  { additionalProperties: false },
);
export type NlwebResult = Static<typeof NlwebResult>;

/** The record as a schema.org object, the `schema_object` NLWeb clients read for an item's details. */
export const NlwebSchemaObject = Type.Object(
  {
    '@context': Type.Literal('https://schema.org'),
    '@type': Type.Literal('CreativeWork'),
    '@id': Type.String({ format: 'uri', description: "The record's address in this service's API." }),
    identifier: Type.String({ description: 'The CVE identifier.' }),
    name: Type.String(),
    url: Type.String({ format: 'uri', description: "The public record, or this service's page for a record with none." }),
    description: Type.String(),
    about: Type.Object(
      { '@type': Type.Literal('SoftwareApplication'), name: Type.String({ description: 'The open-source project.' }) },
      { additionalProperties: false },
    ),
    creativeWorkStatus: RecordStatus,
    datePublished: Type.Optional(Type.String({ format: 'date' })),
    dateModified: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);
export type NlwebSchemaObject = Static<typeof NlwebSchemaObject>;

/**
 * A result as the stream carries it: the JSON answer's NlwebResult (closed in the spec, so unchanged
 * there) plus what NLWeb's UIs render, `description`, and the record as a `schema_object`.
 */
export const NlwebItem = Type.Object(
  {
    ...NlwebResult.properties,
    description: Type.String({ description: 'What NLWeb UIs show under the name; the same text as `snippet`.' }),
    schema_object: NlwebSchemaObject,
  },
  { additionalProperties: false },
);
export type NlwebItem = Static<typeof NlwebItem>;

export const ASK_ANSWER_MODE = 'list';

/** What an answer reports of the request beyond its results: the mode used and what had no effect. */
const answerNotes = {
  mode: Type.Optional(Type.Literal(ASK_ANSWER_MODE, { description: 'The answer mode used: always `list`.' })),
  requested_mode: Type.Optional(
    Type.String({
      description: 'Present when another mode was asked for (`summarize`, `generate`, `none`): the request, answered as `list`.',
    }),
  ),
  ignored: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'NLWeb parameters of the request that this service accepts but cannot honour (e.g. `prev`, `display_mode`, ' +
        'a `site` other than its own), by name. Absent when every parameter was used.',
    }),
  ),
};

export const NlwebResponse = Type.Object(
  {
    query_id: Type.String({ description: "The caller's `query_id`, or one generated for this answer." }),
    results: Type.Array(NlwebResult),
    query: Type.Optional(Type.String({ description: 'The query that was searched (the default phrase when none was given).' })),
    understood: Type.Optional(
      Type.Array(Type.String(), {
        description: 'How the query was read, one reading per item, e.g. `id CVE-2025-24530`, `status public`, `year >= 2023`.',
      }),
    ),
    ...answerNotes,
  },
  { additionalProperties: true },
);
export type NlwebResponse = Static<typeof NlwebResponse>;

/**
 * The JSON answer as NLWeb sends it, to a request that speaks NLWeb (`streaming`, its name of `stream`):
 * each result is the stream's item, with the `description` NLWeb clients read. A spec client, which asks
 * with `stream` or with neither, gets NlwebResponse and its closed NlwebResult.
 */
export const NlwebItemsResponse = Type.Object(
  { ...NlwebResponse.properties, results: Type.Array(NlwebItem) },
  { additionalProperties: true, description: 'The answer to a request with `streaming=false`: results as NLWeb items.' },
);
export type NlwebItemsResponse = Static<typeof NlwebItemsResponse>;

/** `GET /sites`, as NLWeb's own `/sites` answers (its UIs check `message-type`). */
export const NlwebSites = Type.Object(
  {
    'message-type': Type.Literal('sites'),
    sites: Type.Array(Type.String(), { description: 'The sites this service searches: one, its own.' }),
  },
  { additionalProperties: false },
);
export type NlwebSites = Static<typeof NlwebSites>;

/*
 * Messages of the `/ask` stream. Each is an unnamed Server-Sent Event (so `EventSource.onmessage` gets
 * it) whose JSON data names itself in `message_type`, as NLWeb servers send them and its UIs read them.
 */
const message = <Type extends string, Fields extends Record<string, TSchema>>(type: Type, fields: Fields, description: string) =>
  Type.Object({ message_type: Type.Literal(type), query_id: Type.String(), ...fields }, { additionalProperties: false, description });

export const AskBeginMessage = message(
  'begin-nlweb-response',
  { query: Type.String({ description: 'The query searched.' }), ...answerNotes },
  'First message, sent before the search runs.',
);
export const AskResultMessage = message(
  'result',
  { content: Type.Array(NlwebItem, { minItems: 1 }) },
  'One result, in rank order (NLWeb 0.5 and later read `content`).',
);
export const AskResultBatchMessage = message(
  'result_batch',
  { results: Type.Array(NlwebItem) },
  'All results again in one message, for the NLWeb UIs that read `result_batch` (`results`); sent after the `result` messages. Read one or the other.',
);
export const AskErrorMessage = message(
  'error',
  { message: Type.String(), code: Type.String(), requestId: Type.String() },
  'The search failed after the stream opened; `end-nlweb-response` and `complete` follow.',
);
export const AskEndMessage = message('end-nlweb-response', {}, 'End of the answer.');
export const AskCompleteMessage = message(
  'complete',
  {
    count: Type.Integer({ minimum: 0, description: 'Results sent.' }),
    understood: Type.Optional(Type.Array(Type.String(), { description: 'How the query was read, as in the JSON answer.' })),
  },
  'Always the last message; NLWeb UIs close the EventSource on it (otherwise it would reconnect and ask again).',
);

/** The stream's messages by `message_type`, in the order they come. */
export const askStreamMessages = {
  'begin-nlweb-response': AskBeginMessage,
  result: AskResultMessage,
  result_batch: AskResultBatchMessage,
  error: AskErrorMessage,
  'end-nlweb-response': AskEndMessage,
  complete: AskCompleteMessage,
} as const;
export type AskStreamMessage = Static<(typeof askStreamMessages)[keyof typeof askStreamMessages]>;
