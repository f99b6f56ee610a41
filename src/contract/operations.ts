// The seven operations of the spec and the compatible additions to v1 (record details, the change feed, the
// change stream, the export, the Atom feed, NLWeb's `/sites`), described once. Routes are registered from this table and the OpenAPI document is
// generated from it, so the served contract and the running server cannot drift.
import Type, { type TSchema } from 'typebox';
import {
  CHANGE_STREAM_BUFFER_BYTES,
  ChangeStreamHeaders,
  ChangeStreamQuery,
  ChangesQuery,
  RecordChange,
  RecordChangesPage,
} from './changes.js';
import { filterReadings, LIST_FILTERS } from './list-filters.js';
import { askStreamMessages, NlwebItemsResponse, NlwebResponse, NlwebSites } from './nlweb.js';
import { AskPostBody, AskQuery, BatchHeaders, FeedQuery, ListQuery, RecordIdParams, SitesQuery } from './parameters.js';
import { ProjectPage, ProjectsQuery } from './projects.js';
import { BatchRequest, BatchResponse, CveRecord, CveRecordDetails, CveRecordPage, DetailsBatchResponse, ExportRecord } from './records.js';
import { Capabilities, Health, Sandbox } from './service.js';
import { VERSION_CHECK_MAX_IDS, VersionCheckRequest, VersionCheckResponse } from './version-checks.js';

export const API_PREFIX = '/api/v1';

/** Newline-delimited JSON: one JSON object per line. */
export const NDJSON_MEDIA_TYPE = 'application/x-ndjson';
export const ATOM_MEDIA_TYPE = 'application/atom+xml';
export const EVENT_STREAM_MEDIA_TYPE = 'text/event-stream';

export type OperationId =
  | 'getAgentApiHealth'
  | 'getServiceCapabilities'
  | 'getPublicApiSandbox'
  | 'listPublicCveRecords'
  | 'listProjects'
  | 'getPublicCveRecord'
  | 'batchGetPublicCveRecords'
  | 'getPublicCveRecordDetails'
  | 'batchGetPublicCveRecordDetails'
  | 'batchCheckVersions'
  | 'listPublicCveRecordChanges'
  | 'streamPublicCveRecordChanges'
  | 'searchPublicRecordsWithNlweb'
  | 'searchPublicRecordsWithNlwebPost'
  | 'listNlwebSites'
  | 'exportPublicCveRecords'
  | 'getPublishedRecordsFeed';

/** How many entries a feed holds: the most recently published records. */
export const FEED_ENTRIES = 50;

const AtomFeed = Type.String({ description: 'An Atom 1.0 feed document (RFC 4287).' });

export interface Operation {
  readonly operationId: OperationId;
  readonly method: 'GET' | 'POST';
  /** OpenAPI path template, e.g. `/api/v1/cve-records/{recordId}`. */
  readonly path: string;
  readonly tag: 'Service' | 'Records' | 'Search';
  readonly summary: string;
  readonly description: string;
  readonly query?: TSchema;
  readonly params?: TSchema;
  readonly headers?: TSchema;
  readonly body?: TSchema;
  readonly success: {
    readonly schema: TSchema;
    readonly description: string;
    /**
     * An answer that is not one JSON document: NDJSON, whose every line `schema` describes, Server-Sent
     * Events, whose every unnamed event's data `schema` describes, or another text format (`schema` a string).
     */
    readonly mediaType?: typeof NDJSON_MEDIA_TYPE | typeof EVENT_STREAM_MEDIA_TYPE | typeof ATOM_MEDIA_TYPE;
  };
  /** The same operation also accepted as POST with this body, documented under its own operationId. */
  readonly post?: { readonly operationId: OperationId; readonly body: TSchema };
  /**
   * The success answer may instead be a Server-Sent Events stream of unnamed events whose JSON data
   * names itself in `message_type`: these messages, by that name.
   */
  readonly eventStream?: { readonly description: string; readonly messages: Readonly<Record<string, TSchema>> };
  /**
   * `public`: a 200 carries an ETag (a hash of its bytes) and a public max-age and answers If-None-Match
   * with 304. `dataset`: the same, but the ETag and Last-Modified name the dataset version, for answers too
   * large to hash or cheaper to answer with 304 before they are built; If-Modified-Since is honoured too.
   */
  readonly caching: 'public' | 'dataset' | 'no-store';
  /**
   * Documented error statuses besides 429 and 500, which every operation has. 400 is on every one too:
   * any request can be malformed (a body that is not JSON, a bad header) whatever it asks for.
   */
  readonly errors: readonly (400 | 404 | 405)[];
}

export const operations: readonly Operation[] = [
  {
    operationId: 'getAgentApiHealth',
    method: 'GET',
    path: `${API_PREFIX}/health`,
    tag: 'Service',
    summary: 'Service health',
    description: 'Reports that the service is up, its version, and that it is read-only and never executes assessments.',
    success: { schema: Health, description: 'The service is healthy.' },
    caching: 'no-store',
    errors: [400, 405],
  },
  {
    operationId: 'getServiceCapabilities',
    method: 'GET',
    path: `${API_PREFIX}/capabilities`,
    tag: 'Service',
    summary: 'Service capabilities',
    description:
      'What the public interface can do: its callable operations, its limits, the boundary between public records ' +
      'and assessment execution, and absolute links to every document and surface.',
    success: { schema: Capabilities, description: 'The capabilities of the service.' },
    caching: 'public',
    errors: [400, 405],
  },
  {
    operationId: 'getPublicApiSandbox',
    method: 'GET',
    path: `${API_PREFIX}/sandbox`,
    tag: 'Service',
    summary: 'Contract sandbox',
    description:
      'Describes the contract sandbox: the contract checks it supports, that it is not persistent, and example ' +
      'requests that work against this service as written.',
    success: { schema: Sandbox, description: 'The sandbox description.' },
    caching: 'public',
    errors: [400, 405],
  },
  {
    operationId: 'listPublicCveRecords',
    method: 'GET',
    path: `${API_PREFIX}/cve-records`,
    tag: 'Records',
    summary: 'List CVE records',
    description:
      'Lists cleared CVE records in pages, newest first: by year, then by sequence number, both compared as numbers ' +
      '(CVE-2025-24530 before CVE-2024-10012 before CVE-2024-9048). ' +
      `${filterReadings(LIST_FILTERS)}. ` +
      'Pass `pagination.nextCursor` as `cursor`, with the same filters, until it is null; a cursor is bound to the ' +
      'filters it was issued for. Unknown or repeated query parameters are rejected with 400.',
    query: ListQuery,
    success: { schema: CveRecordPage, description: 'One page of records.' },
    caching: 'public',
    errors: [400, 404, 405],
  },
  {
    operationId: 'listProjects',
    method: 'GET',
    path: `${API_PREFIX}/projects`,
    tag: 'Records',
    summary: 'List projects',
    description:
      'Lists the projects records are filed under, in name order: the canonical name the list filter `project` takes, ' +
      'its aliases, and its records by status. `q` keeps the projects whose name or an alias begins with it, or that ' +
      'it names with a typo. Pass `pagination.nextCursor` as `cursor`, with the same `q`, until it is null.',
    query: ProjectsQuery,
    success: { schema: ProjectPage, description: 'One page of projects.' },
    caching: 'public',
    errors: [400, 405],
  },
  {
    operationId: 'getPublicCveRecord',
    method: 'GET',
    path: `${API_PREFIX}/cve-records/{recordId}`,
    tag: 'Records',
    summary: 'Get one CVE record',
    description:
      'Returns the record with this CVE identifier. An identifier that does not match the pattern is answered like ' +
      'an unknown one: 404 `record_not_found`.',
    params: RecordIdParams,
    success: { schema: CveRecord, description: 'The record.' },
    caching: 'public',
    errors: [400, 404, 405],
  },
  {
    operationId: 'batchGetPublicCveRecords',
    method: 'POST',
    path: `${API_PREFIX}/cve-records/batch`,
    tag: 'Records',
    summary: 'Get up to 50 CVE records at once',
    description:
      'Looks up 1 to 50 unique identifiers. `records` holds the records found and `missing` the identifiers with no ' +
      'record, both in request order. The call is read-only and idempotent: it is safe to retry, and ' +
      '`Idempotency-Key` (accepted for caller correlation) never changes the result. The body must be ' +
      '`application/json`, at most 64 KiB.',
    headers: BatchHeaders,
    body: BatchRequest,
    success: { schema: BatchResponse, description: 'Records found and identifiers missing.' },
    caching: 'no-store',
    errors: [400, 404, 405],
  },
  {
    operationId: 'getPublicCveRecordDetails',
    method: 'GET',
    path: `${API_PREFIX}/cve-records/{recordId}/details`,
    tag: 'Records',
    summary: 'Get one CVE record with its details',
    description:
      'Returns the record with what its CVE JSON 5 record says: English description and title, state, assigner, dates, ' +
      'problem types (CWE), every CVSS score with its source (the CNA or an ADP), the CISA KEV entry and SSVC decision ' +
      'points when there are any, affected products with their versions in words, and references. A record with no ' +
      'public CVE record has null and empty detail fields. An identifier that does not match the pattern is answered ' +
      'like an unknown one: 404 `record_not_found`. Compatible addition to v1.',
    params: RecordIdParams,
    success: { schema: CveRecordDetails, description: 'The record and its details.' },
    caching: 'public',
    errors: [400, 404, 405],
  },
  {
    operationId: 'batchGetPublicCveRecordDetails',
    method: 'POST',
    path: `${API_PREFIX}/cve-records/details/batch`,
    tag: 'Records',
    summary: 'Get up to 50 CVE records with their details at once',
    description:
      'The batch lookup of `POST /api/v1/cve-records/batch` answering records with their details, as ' +
      '`GET /api/v1/cve-records/{recordId}/details` gives them: `records` in request order, `missing` the identifiers ' +
      'with no record. Read-only and idempotent; the body must be `application/json`, at most 64 KiB. Compatible ' +
      'addition to v1.',
    headers: BatchHeaders,
    body: BatchRequest,
    success: { schema: DetailsBatchResponse, description: 'Records found, with details, and identifiers missing.' },
    caching: 'no-store',
    errors: [400, 404, 405],
  },
  {
    operationId: 'batchCheckVersions',
    method: 'POST',
    path: `${API_PREFIX}/cve-records/version-checks/batch`,
    tag: 'Records',
    summary: 'Check up to 100 versions at once',
    description:
      "Which records say a version is affected, for 1 to 100 queries at once, like OSV's querybatch: each names a " +
      "`project`, a package URL `purl` or a CPE 2.3 name `cpe` and a version, read as the list's filters of those names " +
      'read them, and is answered in request order with the ids of the records that say the version is affected, ' +
      `newest first, at most ${VERSION_CHECK_MAX_IDS} (\`truncated\` says when there are more); with \`includeUnknown\`, ` +
      'also those that cannot tell. One request, counted once against the rate limit. Read-only and idempotent; the body ' +
      'must be `application/json`, at most 64 KiB. A query that cannot be read is a 400 `invalid_body` naming it. ' +
      'Compatible addition to v1.',
    headers: BatchHeaders,
    body: VersionCheckRequest,
    success: { schema: VersionCheckResponse, description: 'One answer per query, in request order.' },
    caching: 'no-store',
    errors: [400, 405],
  },
  {
    operationId: 'listPublicCveRecordChanges',
    method: 'GET',
    path: `${API_PREFIX}/cve-records/changes`,
    tag: 'Records',
    summary: 'List changes of CVE records since a point',
    description:
      'The records added or changed, and the records removed, since `since`, oldest change first: by `modified` ' +
      '(upstream `dateUpdated`), then in listing order. Keep `pagination.next` and pass it as `since`: at once while ' +
      '`hasMore` is true, and again at your next poll to get only what changed in between. `since` may also be a ' +
      'date-time, for a first look at a period. A change carries the record as it is now. Compatible addition to v1.',
    query: ChangesQuery,
    success: { schema: RecordChangesPage, description: 'One page of changes.' },
    caching: 'public',
    errors: [400, 405],
  },
  {
    operationId: 'streamPublicCveRecordChanges',
    method: 'GET',
    path: `${API_PREFIX}/cve-records/changes/stream`,
    tag: 'Records',
    summary: 'Follow changes of CVE records as they land (Server-Sent Events)',
    description:
      'The change feed pushed: a Server-Sent Events stream that stays open and sends each change as the served catalog ' +
      'takes it, in the order and with the objects of `GET /api/v1/cve-records/changes`. Each change is an unnamed event ' +
      '(`EventSource.onmessage`) whose `data` is one change and whose `id` is the feed token after it. First come the ' +
      'changes since `since` (or since `Last-Event-ID`, which EventSource sends when it reconnects, so a reconnecting ' +
      'client misses nothing and receives nothing twice), then one `ready` event (its `data` `{"next": <token>}`, its ' +
      '`id` the same token), then live changes. The list filters apply to records; a removal reaches every stream, ' +
      'since a removed record has no fields left to filter on. Comment lines (`: keep-alive`) arrive while nothing ' +
      `changes. A client that does not read is disconnected once ${CHANGE_STREAM_BUFFER_BYTES / 1024} KiB wait for it, and resumes with \`Last-Event-ID\`; ` +
      'the stream also ends when the service stops (reconnect to resume). Each address may hold a limited number ' +
      'of streams open at once; one more is a 429 `too_many_streams` with `Retry-After`. Compatible addition to v1.',
    query: ChangeStreamQuery,
    headers: ChangeStreamHeaders,
    success: {
      schema: RecordChange,
      description: 'A stream of changes, each the `data` of one unnamed event whose `id` is where to resume after it.',
      mediaType: EVENT_STREAM_MEDIA_TYPE,
    },
    caching: 'no-store',
    errors: [400, 405],
  },
  {
    operationId: 'searchPublicRecordsWithNlweb',
    method: 'GET',
    path: '/ask',
    tag: 'Search',
    summary: 'Search records in natural language (NLWeb)',
    description:
      'Searches the records by CVE identifier, project or publication status and answers with NLWeb results scored ' +
      'from 0 to 1. With `stream=true` or `Accept: text/event-stream` the answer is a Server-Sent Events stream. ' +
      '`POST /ask` accepts the same parameters.',
    query: AskQuery,
    post: { operationId: 'searchPublicRecordsWithNlwebPost', body: AskPostBody },
    success: {
      // The spec's answer, or NLWeb's to a request that says `streaming` (NLWeb's name of `stream`).
      schema: Type.Union([NlwebResponse, NlwebItemsResponse]),
      description: 'Search results, best first; NLWeb items when the request said `streaming=false`.',
    },
    eventStream: {
      description:
        'With `stream=true` (or `streaming`) or `Accept: text/event-stream`: a Server-Sent Events stream as NLWeb sends ' +
        'it. Every event is unnamed (`EventSource.onmessage` receives it) and its `data` is one JSON object naming ' +
        'itself in `message_type`: `begin-nlweb-response`, one `result` per item in rank order (`content`), a ' +
        '`result_batch` with all of them again (`results`, for older NLWeb UIs), `end-nlweb-response`, then ' +
        '`complete`, always last. A failure mid-stream sends `error` before the end. Comment lines (`: keep-alive`) ' +
        'may arrive between events.',
      messages: askStreamMessages,
    },
    caching: 'no-store',
    errors: [400, 404, 405],
  },
  {
    operationId: 'listNlwebSites',
    method: 'GET',
    path: '/sites',
    tag: 'Search',
    summary: 'Sites searched by /ask (NLWeb)',
    description:
      "NLWeb's `/sites`: the sites `/ask` can search, for the site selectors of NLWeb UIs. This service is one site. " +
      'The answer is JSON whatever `streaming` says.',
    query: SitesQuery,
    success: { schema: NlwebSites, description: 'The sites.' },
    caching: 'public',
    errors: [400, 405],
  },
  {
    operationId: 'exportPublicCveRecords',
    method: 'GET',
    path: `${API_PREFIX}/cve-records/export`,
    tag: 'Records',
    summary: 'Export every CVE record',
    description:
      'The whole catalog in one download, for clients that keep a copy: newline-delimited JSON, one record per line in ' +
      'listing order, each with its `published` and `modified` dates when known. Sent gzip-compressed ' +
      '(`Content-Encoding: gzip`) to clients that accept gzip, so `curl --compressed` and `fetch` read plain lines. ' +
      'The ETag and Last-Modified name the dataset version: send `If-None-Match` to download only when the catalog ' +
      'changed. One request against the rate limit, however large. The query string is ignored.',
    success: { schema: ExportRecord, description: 'Every record, one per line.', mediaType: NDJSON_MEDIA_TYPE },
    caching: 'dataset',
    errors: [400, 405],
  },
  {
    operationId: 'getPublishedRecordsFeed',
    method: 'GET',
    path: '/feeds/records.atom',
    tag: 'Records',
    summary: 'Atom feed of newly published records',
    description:
      `An Atom 1.0 feed (RFC 4287) of the ${FEED_ENTRIES} most recently published records, newest first, for feed readers. ` +
      "With `project`, only that project's records (an exact, case-sensitive name, as the list filter takes it; a " +
      "project without published records gives a valid, empty feed). Each entry links to the record's page on this " +
      'service and to its public record; `updated` is when the record last changed, else its publication date.',
    query: FeedQuery,
    success: { schema: AtomFeed, description: 'The feed.', mediaType: ATOM_MEDIA_TYPE },
    caching: 'dataset',
    errors: [400, 405],
  },
];

/** `/api/v1/cve-records/{recordId}` -> `/api/v1/cve-records/:recordId` */
export function routerPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
