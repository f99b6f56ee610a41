// NLWeb-compatible search resources of `/ask`.
import Type, { type Static } from 'typebox';

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

export const NlwebResponse = Type.Object(
  {
    query_id: Type.String({ description: "The caller's `query_id`, or one generated for this answer." }),
    results: Type.Array(NlwebResult),
    query: Type.Optional(Type.String({ description: 'The query that was searched (the default phrase when none was given).' })),
    understood: Type.Optional(
      Type.Array(Type.String(), {
        description: 'How the query was read, one reading per item, e.g. `id CVE-2024-3094`, `status public`, `year >= 2023`.',
      }),
    ),
  },
  { additionalProperties: true },
);
export type NlwebResponse = Static<typeof NlwebResponse>;

/** Events of the `/ask` stream (NLWeb v0.55): `start`, one `result` per item, then `complete`. */
export const AskStartEvent = Type.Object(
  { query_id: Type.String(), query: Type.String() },
  { additionalProperties: false, description: 'Data of the `start` event, sent before the search runs.' },
);
export const AskResultEvent = Type.Object(
  { index: Type.Integer({ minimum: 0 }), item: NlwebResult },
  { additionalProperties: false, description: 'Data of a `result` event: the item at position `index` of the results.' },
);
export const AskCompleteEvent = Type.Object(
  {
    query_id: Type.String(),
    count: Type.Integer({ minimum: 0, description: 'Results sent.' }),
    understood: Type.Optional(Type.Array(Type.String(), { description: 'How the query was read, as in the JSON answer.' })),
  },
  { additionalProperties: false, description: 'Data of the `complete` event, always the last one.' },
);
export const AskErrorEvent = Type.Object(
  { code: Type.String(), message: Type.String(), requestId: Type.String() },
  { additionalProperties: false, description: 'Data of an `error` event, sent when the search fails mid-stream; `complete` follows.' },
);
