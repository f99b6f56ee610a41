// Service metadata resources: health, capabilities, sandbox.
import Type, { type Static } from 'typebox';

const Links = Type.Record(Type.String(), Type.String({ format: 'uri' }), {
  description: 'Absolute links to the documents and endpoints of the service.',
});
const Boundaries = Type.Object(
  {},
  {
    additionalProperties: true,
    description: 'The boundary between public records and assessment execution.',
  },
);

export const Health = Type.Object(
  {
    status: Type.Literal('ok'),
    version: Type.String({ description: 'Service version.' }),
    readOnly: Type.Literal(true),
    assessmentExecution: Type.Literal(false),
  },
  { additionalProperties: false },
);
export type Health = Static<typeof Health>;

export const Capabilities = Type.Object(
  {
    name: Type.String(),
    version: Type.String(),
    access: Type.Literal('public'),
    authentication: Type.Literal('none'),
    readOnly: Type.Literal(true),
    capabilities: Type.Array(Type.String(), { description: 'Callable capabilities (operation ids).' }),
    boundaries: Boundaries,
    links: Links,
    limits: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'Page size, batch size, query length and rate limits.' }),
    ),
    dataset: Type.Optional(
      Type.Object(
        {
          records: Type.Integer({ minimum: 0, description: 'Number of records served.' }),
          lastVerified: Type.String({ format: 'date' }),
          version: Type.String({ description: 'Content hash of the dataset; changes whenever a record does.' }),
        },
        { additionalProperties: true, description: 'The dataset being served.' },
      ),
    ),
  },
  { additionalProperties: true },
);
export type Capabilities = Static<typeof Capabilities>;

export const Sandbox = Type.Object(
  {
    schemaVersion: Type.Literal('1.0'),
    mode: Type.Literal('sandbox'),
    persistent: Type.Literal(false),
    productionData: Type.Literal(false),
    authentication: Type.Literal('none'),
    readOnly: Type.Literal(true),
    capabilities: Type.Array(Type.String(), { description: 'Supported contract checks.' }),
    boundaries: Boundaries,
    links: Links,
    exampleRequests: Type.Array(Type.String(), { description: 'Requests that work against this service.' }),
  },
  { additionalProperties: false },
);
export type Sandbox = Static<typeof Sandbox>;
