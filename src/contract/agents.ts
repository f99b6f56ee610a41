// What the agent surfaces (MCP tools, A2A answers) take and give beyond the spec's operations. Every
// shape is cut from the record, search and service resources, so a field changed there changes here.
import Type, { type Static } from 'typebox';
import { NlwebResponse, NlwebResult } from './nlweb.js';
import { AskQuery, MAX_QUERY_LENGTH, QUERY_READING } from './parameters.js';
import { CveId, CveRecord, CveRecordDetails, RecordStatus } from './records.js';
import { Capabilities, Health, Sandbox } from './service.js';

// The title, link and text of a record are those /ask shows for it, and a search reports its query and
// its reading of the query as /ask does (always, here).
const { name: title, url, snippet, score } = NlwebResult.properties;
const { query, understood } = Type.Required(Type.Pick(NlwebResponse, ['query', 'understood'])).properties;

/**
 * Arguments of the ChatGPT-connector `search` tool: the /ask query, required (connectors always send
 * one), so its description says nothing of /ask's default phrase.
 */
export const ConnectorSearchArguments = Type.Object(
  {
    query: Type.String({
      maxLength: MAX_QUERY_LENGTH,
      description: `What to search for (required): ${QUERY_READING}.`,
    }),
  },
  { additionalProperties: false },
);
export type ConnectorSearchArguments = Static<typeof ConnectorSearchArguments>;

/** What a ChatGPT connector's `search` returns: enough to cite a record and to `fetch` it. */
export const ConnectorSearchResults = Type.Object(
  { results: Type.Array(Type.Object({ id: CveId, title, url }, { additionalProperties: false })) },
  { additionalProperties: false, description: 'Records matching the query, best first.' },
);
export type ConnectorSearchResults = Static<typeof ConnectorSearchResults>;

/** Arguments of the ChatGPT-connector `fetch` tool: an `id` returned by `search`. */
export const ConnectorFetchArguments = Type.Object({ id: CveId }, { additionalProperties: false });
export type ConnectorFetchArguments = Static<typeof ConnectorFetchArguments>;

/** What a ChatGPT connector's `fetch` returns: one record as a document. */
export const ConnectorDocument = Type.Object(
  {
    id: CveId,
    title,
    text: Type.String({
      description: 'The title and description, then severity, exploitation, weakness and affected products, in a few lines.',
    }),
    url,
    metadata: Type.Object(
      {
        project: CveRecord.properties.project,
        status: RecordStatus,
        published: Type.Optional(Type.String({ format: 'date', description: 'Publication date, when known.' })),
        details: CveRecordDetails,
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type ConnectorDocument = Static<typeof ConnectorDocument>;

/** Arguments of record search on the agent surfaces: the /ask `query` and `limit`. */
export const RecordSearchArguments = Type.Pick(AskQuery, ['query', 'limit'], { additionalProperties: false });
export type RecordSearchArguments = Static<typeof RecordSearchArguments>;

/** The /ask results as records: each with its score and the text /ask shows for it. */
export const RecordSearchResults = Type.Object(
  {
    query,
    understood,
    results: Type.Array(Type.Object({ record: CveRecord, score, snippet }, { additionalProperties: false }), {
      description: 'Matching records, best first.',
    }),
  },
  { additionalProperties: false },
);
export type RecordSearchResults = Static<typeof RecordSearchResults>;

/** Health, capabilities and sandbox in one answer. */
export const ServiceInfo = Type.Object({ health: Health, capabilities: Capabilities, sandbox: Sandbox }, { additionalProperties: false });
export type ServiceInfo = Static<typeof ServiceInfo>;

/** A tool that takes no arguments. */
export const NoArguments = Type.Object({}, { additionalProperties: false });
