// The SDK's names for the shapes of the contract. Every one is taken from the generated contract (the
// service's own OpenAPI document), so none of them is a hand copy.
import type { components, operations, SearchEvents } from './generated/contract.js';

type Schemas = components['schemas'];

export type RecordStatus = Schemas['RecordStatus'];
export type CveRecord = Schemas['CveRecord'];
export type Pagination = Schemas['Pagination'];
export type CveRecordPage = Schemas['CveRecordPage'];
/** A line of the export: a record with its `published` and `modified` dates when known. */
export type ExportRecord = Schemas['ExportRecord'];
export type BatchResponse = Schemas['BatchResponse'];
export type Health = Schemas['Health'];
export type Capabilities = Schemas['Capabilities'];
export type Sandbox = Schemas['Sandbox'];
export type NlwebResult = Schemas['NlwebResult'];
export type NlwebResponse = Schemas['NlwebResponse'];
export type ErrorResponse = Schemas['ErrorResponse'];

/** Query parameters of `GET /api/v1/cve-records`. */
export type ListParams = NonNullable<operations['listPublicCveRecords']['parameters']['query']>;
/** What `records.listAll` takes: the list parameters but the cursor, which it walks itself. */
export type ListFilters = Omit<ListParams, 'cursor'>;
/** Parameters of `/ask` but the stream flags: `search` answers JSON, `searchStream` a stream. */
export type SearchParams = Omit<NonNullable<operations['searchPublicRecordsWithNlweb']['parameters']['query']>, 'stream' | 'streaming'>;

/** One event of the `/ask` stream: `start`, a `result` per item, an `error` if the search failed, `complete`. */
export type SearchEvent = { [Name in keyof SearchEvents]: { event: Name; data: SearchEvents[Name] } }[keyof SearchEvents];
