// The agent tools, one entry each: the contract schemas of its arguments and answer, which REST request
// part its arguments stand for, and the core call it makes. MCP serves them; /llms.txt names them.
// Nothing here knows a wire format.
import type { Static, TSchema } from 'typebox';
import {
  BatchRequest,
  BatchResponse,
  ChangesQuery,
  ConnectorDocument,
  ConnectorFetchArguments,
  ConnectorSearchArguments,
  ConnectorSearchResults,
  CveRecord,
  CveRecordDetails,
  CveRecordPage,
  filterBriefs,
  LIST_FILTERS,
  ListQuery,
  NoArguments,
  PAGE_LIMIT,
  ProjectPage,
  ProjectsQuery,
  QUERY_READING,
  RecordChangesPage,
  RecordIdParams,
  RecordSearchArguments,
  RecordSearchResults,
  type RequestPart,
  ServiceError,
  ServiceInfo,
  VersionCheckRequest,
  VersionCheckResponse,
} from '../../contract/index.js';
import { batchGet } from '../../core/batch.js';
import { listChanges } from '../../core/changes.js';
import { recordDetails } from '../../core/details.js';
import { listRecords, prepareFilters } from '../../core/list.js';
import { closestProjects, listProjects } from '../../core/project-list.js';
import { capabilities, health, sandbox } from '../../core/service-info.js';
import type { RecordEntry } from '../../core/snapshot.js';
import { checkVersions } from '../../core/version-checks.js';
import { agentSearch, searchAnswer } from './agent-search.js';
import type { SurfaceContext } from './context.js';
import { detailsText } from './details-text.js';
import { toNlwebResult } from './result-shaping.js';

export interface Tool<I extends TSchema = TSchema, O extends TSchema = TSchema> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: I;
  readonly output: O;
  /** The REST request part the arguments stand for: a bad one fails as that part would. */
  readonly arguments: RequestPart;
  run(args: Static<I>, ctx: SurfaceContext): Static<O> | Promise<Static<O>>;
  /** A sentence for the model besides the answer, when the answer alone would mislead it. */
  hint?(args: Static<I>, answer: Static<O>, ctx: SurfaceContext): Promise<string | undefined>;
}

// Keeps each entry's run() typed against its own schemas while the table holds them all.
const tool = <I extends TSchema, O extends TSchema>(definition: Tool<I, O>): Tool => definition as unknown as Tool;

export const tools: readonly Tool[] = [
  tool({
    name: 'search',
    title: 'Search CVE records',
    description:
      'Searches the cleared CVE records by CVE id, project name, publication status, year, severity, exploitation, ' +
      'CWE or free text, and returns ' +
      'the best matches as {id, title, url}; pass an id to `fetch` for the record. The search/fetch pair that ChatGPT ' +
      'connectors and deep research require; otherwise prefer `search_cve_records`, which returns each record with ' +
      'its project, status and score and takes a `limit`.',
    input: ConnectorSearchArguments,
    output: ConnectorSearchResults,
    arguments: 'querystring',
    run: async ({ query }, ctx) => ({
      results: (await agentSearch(ctx, query)).hits.map(({ record, shown }) => ({ id: record.id, title: shown.name, url: shown.url })),
    }),
  }),
  tool({
    name: 'fetch',
    title: 'Fetch a CVE record',
    description:
      'Returns the record with this CVE id as a document: {id, title, text, url, metadata}: the text is its ' +
      'description, severity, exploitation (CISA KEV), weakness (CWE) and affected products; metadata holds its ' +
      'project, status, publication date and every detail (CVSS vectors, references). The fetch of the search/fetch ' +
      'pair that ChatGPT connectors require, for ids from `search`; otherwise use `get_cve_record_details`, or ' +
      '`get_cve_record` for the bare record.',
    input: ConnectorFetchArguments,
    output: ConnectorDocument,
    arguments: 'querystring',
    run: ({ id }, ctx) => {
      const entry = recordEntry(ctx, id);
      const { name, url } = toNlwebResult({ entry, score: 1 }, ctx.config.baseUrl, ctx.config.siteName);
      const { project, status } = entry.record;
      const details = recordDetails(entry);
      return {
        id,
        title: name,
        text: detailsText(details, entry.summary),
        url,
        metadata: { project, status, ...(entry.published ? { published: entry.published } : {}), details },
      };
    },
  }),
  tool({
    name: 'list_cve_records',
    title: 'List CVE records',
    description:
      `Lists records newest first, \`limit\` (${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}) at a time, optionally filtered by ` +
      `${filterBriefs(LIST_FILTERS)}; the project names are those of \`list_projects\`. ` +
      'Pass `pagination.nextCursor` back as `cursor`, with the same filters, until it is null. The same answer as ' +
      'GET /api/v1/cve-records.',
    input: ListQuery,
    output: CveRecordPage,
    arguments: 'querystring',
    run: async (query, ctx) => {
      const snapshot = ctx.store.current;
      await prepareFilters(snapshot, query);
      return listRecords(snapshot, query, ctx.cursors);
    },
    hint: async ({ project }, page, ctx) =>
      project === undefined || page.records.length > 0 || ctx.store.current.filters.project(project).length > 0
        ? undefined
        : unknownProjectHint(ctx, project),
  }),
  tool({
    name: 'list_projects',
    title: 'List project names',
    description:
      'Lists the project names `list_cve_records` takes as `project` (exact, case-sensitive: e.g. `Linux`, `OpenSSL`, ' +
      '`phpMyAdmin`), with their other spellings and their records by status, in name order. `q` keeps the names that ' +
      'begin with it in any case or that it misspells. The same answer as GET /api/v1/projects.',
    input: ProjectsQuery,
    output: ProjectPage,
    arguments: 'querystring',
    run: (query, ctx) => listProjects(ctx.store.current, query, ctx.cursors),
  }),
  tool({
    name: 'get_cve_record',
    title: 'Get one CVE record',
    description:
      'Returns the record with this CVE id: {id, project, status, url}, as GET /api/v1/cve-records/{recordId} does. ' +
      'An unknown id is the error `record_not_found`. Use this for a record; `fetch` returns it as a document with ' +
      'its text, for ChatGPT connectors, and `batch_get_cve_records` takes up to 50 ids.',
    input: RecordIdParams,
    output: CveRecord,
    arguments: 'querystring',
    run: ({ recordId }, ctx) => recordEntry(ctx, recordId).record,
  }),
  tool({
    name: 'get_cve_record_details',
    title: 'Get what is known about a CVE',
    description:
      'Returns the record with this CVE id and its details: description, CVSS scores with vectors and severity ' +
      '(from the CNA and from ADPs such as CISA-ADP), KEV entry, SSVC decision points, CWE weaknesses, affected ' +
      'products and versions, references. The same answer as GET /api/v1/cve-records/{recordId}/details. An ' +
      'unknown id is the error `record_not_found`.',
    input: RecordIdParams,
    output: CveRecordDetails,
    arguments: 'querystring',
    run: ({ recordId }, ctx) => recordDetails(recordEntry(ctx, recordId)),
  }),
  tool({
    name: 'batch_get_cve_records',
    title: 'Get up to 50 CVE records at once',
    description:
      'Looks up 1 to 50 unique CVE ids: `records` holds those found and `missing` those the service has no record of, ' +
      'both in the order asked. The same answer as POST /api/v1/cve-records/batch.',
    input: BatchRequest,
    output: BatchResponse,
    arguments: 'body',
    run: ({ recordIds }, ctx) => batchGet(ctx.store.current, recordIds),
  }),
  tool({
    name: 'check_versions',
    title: 'Is a version affected?',
    description:
      'Checks 1 to 100 versions at once: each query names exactly one of `project` (names from `list_projects`), a package ' +
      'URL `purl` (`pkg:pypi/apache-airflow@2.7.0`) or a CPE 2.3 name `cpe`, and a version (`version`, or the one in the ' +
      'purl or CPE). Each answer, in order, lists the ids of the records whose affected entries say the version is ' +
      'affected, by the CVE JSON 5 rules of their version types; with `includeUnknown`, also those that cannot tell. ' +
      'The same answer as POST /api/v1/cve-records/version-checks/batch; `get_cve_record_details` shows the ranges.',
    input: VersionCheckRequest,
    output: VersionCheckResponse,
    arguments: 'body',
    run: (request, ctx) => checkVersions(ctx.store.current, request),
  }),
  tool({
    name: 'list_cve_record_changes',
    title: 'What changed since a point',
    description:
      'Lists the records added or changed, and the records removed (rejected upstream), after `since`, oldest first, ' +
      '`limit` (1 to 1,000) at a time. `since` is the `pagination.next` of an earlier answer, or a date or date-time ' +
      'such as "2025-01-20"; without it the feed starts at the oldest change. Keep `pagination.next` to ask again ' +
      'later for only what changed in between. The same answer as GET /api/v1/cve-records/changes.',
    input: ChangesQuery,
    output: RecordChangesPage,
    arguments: 'querystring',
    run: (query, ctx) => listChanges(ctx.store.current, query, ctx.cursors),
  }),
  tool({
    name: 'search_cve_records',
    title: 'Search CVE records, with scores',
    description:
      `Searches like GET /ask (${QUERY_READING}) and returns each match as the record, its score from ` +
      '0 to 1 and a short text. A blank or absent `query` lists public records. Prefer this to `search`, which ' +
      'returns only ids, titles and links, for the ChatGPT connectors that require the search/fetch pair.',
    input: RecordSearchArguments,
    output: RecordSearchResults,
    arguments: 'querystring',
    run: ({ query, limit }, ctx) => searchAnswer(ctx, query, limit),
  }),
  tool({
    name: 'get_service_info',
    title: 'Service health, capabilities and sandbox',
    description:
      'Reports that the service is up and read-only, what it can do, its limits, links to every surface, the dataset ' +
      'being served, and example requests.',
    input: NoArguments,
    output: ServiceInfo,
    arguments: 'querystring',
    run: (_args, ctx) => ({
      health: health(ctx.description, ctx.source),
      capabilities: capabilities(ctx.description, ctx.store.current),
      sandbox: sandbox(ctx.description, ctx.store.current),
    }),
  }),
];

/** What an agent is told when no record is filed under the project it named: the names it may have meant. */
export async function unknownProjectHint(ctx: SurfaceContext, name: string): Promise<string> {
  const closest = await closestProjects(ctx.store.current, name, 5);
  const meant = closest.length > 0 ? ` The closest project names: ${closest.map((n) => JSON.stringify(n)).join(', ')}.` : '';
  return `No record is filed under the project ${JSON.stringify(name)}.${meant} list_projects lists the names the project filter takes.`;
}

function recordEntry(ctx: SurfaceContext, id: string): RecordEntry {
  const entry = ctx.store.current.get(id);
  if (!entry) throw new ServiceError('record_not_found', `There is no record ${id}.`, { recordId: id });
  return entry;
}
