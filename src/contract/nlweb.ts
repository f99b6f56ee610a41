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
    query_id: Type.String(),
    results: Type.Array(NlwebResult),
  },
  { additionalProperties: true },
);
export type NlwebResponse = Static<typeof NlwebResponse>;
