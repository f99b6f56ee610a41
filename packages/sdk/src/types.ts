// The SDK's names for the shapes of the contract. Every one is taken from the generated contract (the
// service's own OpenAPI document), so none of them is a hand copy.
import type { components, operations, SearchMessages } from './generated/contract.js';

type Schemas = components['schemas'];

export type RecordStatus = Schemas['RecordStatus'];
export type CveRecord = Schemas['CveRecord'];
export type Pagination = Schemas['Pagination'];
export type CveRecordPage = Schemas['CveRecordPage'];
/** A line of the export: a record with its `published` and `modified` dates when known. */
export type ExportRecord = Schemas['ExportRecord'];
export type BatchResponse = Schemas['BatchResponse'];
/** A record with what its CVE JSON 5 record says: description, CVSS, CWE, KEV, SSVC, affected products, references. */
export type CveRecordDetails = Schemas['CveRecordDetails'];
export type DetailsBatchResponse = Schemas['DetailsBatchResponse'];
/** One version check: exactly one of `project`, `purl` or `cpe`, and a version (`version`, or in the purl or CPE). */
export type VersionCheckQuery = Schemas['VersionCheckQuery'];
/** The records a version check found: `affected`, `unknown` when asked, `truncated` past the ids one answer lists. */
export type VersionCheckResult = Schemas['VersionCheckResult'];
export type VersionCheckResponse = Schemas['VersionCheckResponse'];
export type RecordChange = Schemas['RecordChange'];
export type RecordChangesPage = Schemas['RecordChangesPage'];
export type Health = Schemas['Health'];
export type Capabilities = Schemas['Capabilities'];
export type Sandbox = Schemas['Sandbox'];
export type NlwebResult = Schemas['NlwebResult'];
/** A result as the stream carries it: an NlwebResult with `description` and `schema_object`. */
export type NlwebItem = Schemas['NlwebItem'];
export type NlwebResponse = Schemas['NlwebResponse'];
export type ErrorResponse = Schemas['ErrorResponse'];
/** A project: the exact name the list's `project` filter takes, its aliases and its records by status. */
export type ProjectSummary = Schemas['ProjectSummary'];
export type ProjectPage = Schemas['ProjectPage'];

/** Query parameters of `GET /api/v1/cve-records`. */
export type ListParams = NonNullable<operations['listPublicCveRecords']['parameters']['query']>;
/** What `records.listAll` takes: the list parameters but the cursor, which it walks itself. */
export type ListFilters = Omit<ListParams, 'cursor'>;
/** Query parameters of `GET /api/v1/projects`. */
export type ProjectsParams = NonNullable<operations['listProjects']['parameters']['query']>;
/** Query parameters of `GET /api/v1/cve-records/changes`. */
export type ChangesParams = NonNullable<operations['listPublicCveRecordChanges']['parameters']['query']>;
/** What `records.follow` takes: the change stream's filters and where to start (`since`). */
export type FollowParams = Omit<NonNullable<operations['streamPublicCveRecordChanges']['parameters']['query']>, 'lastEventId'>;
/** A change as `records.follow` yields it, with `next`: the token right after it, where a later `follow` resumes. */
export interface FollowedChange {
  readonly change: RecordChange;
  readonly next: string;
}
/** Parameters of `/ask` but the stream flags: `search` answers JSON, `searchStream` a stream. */
export type SearchParams = Omit<NonNullable<operations['searchPublicRecordsWithNlweb']['parameters']['query']>, 'stream' | 'streaming'>;

/**
 * One message of the `/ask` stream, told apart by `message_type`: `begin-nlweb-response`, a `result` per
 * item, an `error` if the search failed, `end-nlweb-response`, `complete`. (`result_batch`, which repeats
 * the results for older NLWeb UIs, is not yielded.)
 */
export type SearchMessage = SearchMessages[Exclude<keyof SearchMessages, 'result_batch'>];
