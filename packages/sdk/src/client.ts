// The client: one method per operation of the contract, plus the walks a caller would otherwise write
// by hand (every page of a list, batches of any size, the events of a streamed search, the lines of the
// export). The Atom feed is for feed readers and has no method.

import { CveRecordsError } from './errors.js';
import { readServerSentEvents } from './event-stream.js';
import { BATCH_MAX_IDS, CHANGES_LIMIT_MAX, PAGE_LIMIT_MAX, SEARCH_MESSAGE_TYPES, VERSION_CHECK_MAX_QUERIES } from './generated/contract.js';
import { readLines } from './ndjson.js';
import { type ClientOptions, type RequestOptions, sleep, Transport } from './transport.js';
import type {
  BatchResponse,
  Capabilities,
  ChangesParams,
  CveRecord,
  CveRecordDetails,
  CveRecordPage,
  DetailsBatchResponse,
  ExportRecord,
  FollowedChange,
  FollowParams,
  Health,
  ListFilters,
  ListParams,
  NlwebResponse,
  ProjectPage,
  ProjectsParams,
  RecordChange,
  RecordChangesPage,
  Sandbox,
  SearchMessage,
  SearchParams,
  VersionCheckQuery,
  VersionCheckResponse,
} from './types.js';

/** How long `follow` waits before it reconnects after its stream ended (the service stopping, a dropped connection). */
const RECONNECT_MS = 1000;

export class CveRecordsClient {
  readonly records: RecordsApi;
  readonly #transport: Transport;

  constructor(options: ClientOptions) {
    this.#transport = new Transport(options);
    this.records = new RecordsApi(this.#transport);
  }

  /** `GET /api/v1/health`. */
  health(options?: RequestOptions): Promise<Health> {
    return this.#transport.json({ method: 'GET', path: '/api/v1/health' }, options);
  }

  /** `GET /api/v1/capabilities`: operations, limits, links and the dataset served. */
  capabilities(options?: RequestOptions): Promise<Capabilities> {
    return this.#transport.json({ method: 'GET', path: '/api/v1/capabilities' }, options);
  }

  /** `GET /api/v1/sandbox`: contract checks and example requests. */
  sandbox(options?: RequestOptions): Promise<Sandbox> {
    return this.#transport.json({ method: 'GET', path: '/api/v1/sandbox' }, options);
  }

  /**
   * `GET /api/v1/projects`: one page of projects in name order, each with the exact name `records.list` takes
   * as `project`, its aliases and its records by status; `q` keeps those a prefix or a misspelling names.
   */
  listProjects(params: ProjectsParams = {}, options?: RequestOptions): Promise<ProjectPage> {
    return this.#transport.json({ method: 'GET', path: '/api/v1/projects', query: params }, options);
  }

  /** `GET /ask`: the records matching a query, best first, each scored from 0 to 1. */
  search(query: string | SearchParams, options?: RequestOptions): Promise<NlwebResponse> {
    return this.#transport.json({ method: 'GET', path: '/ask', query: searchParams(query) }, options);
  }

  /**
   * `GET /ask` as a Server-Sent Events stream, message by message as NLWeb sends them:
   * `begin-nlweb-response`, one `result` per item as it is found, `end-nlweb-response`, then `complete`
   * (an `error` before the end if the search failed). Leaving the loop early, or aborting
   * `options.signal`, closes the connection.
   */
  async *searchStream(query: string | SearchParams, options: RequestOptions = {}): AsyncGenerator<SearchMessage> {
    const { response, deadline } = await this.#transport.stream(
      { method: 'GET', path: '/ask', query: { ...searchParams(query), stream: true }, accept: 'text/event-stream' },
      options,
    );
    try {
      if (!response.body) return;
      for await (const { event, data } of readServerSentEvents(response.body)) {
        if (event !== 'message') continue;
        const message: { message_type?: unknown } = JSON.parse(data);
        if (!isSearchMessage(message)) continue;
        yield message;
        if (message.message_type === 'complete') return;
      }
    } catch (error) {
      throw deadline.failure(error, error instanceof SyntaxError ? 'invalid_response' : 'network_error');
    } finally {
      deadline.release();
    }
  }
}

export class RecordsApi {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** `GET /api/v1/cve-records`: one page, newest first; pass `pagination.nextCursor` as `cursor` for the next. */
  list(params: ListParams = {}, options?: RequestOptions): Promise<CveRecordPage> {
    return this.#transport.json({ method: 'GET', path: '/api/v1/cve-records', query: params }, options);
  }

  /** Every record matching the filters, page after page (100 a page unless `limit` says otherwise). */
  async *listAll(filters: ListFilters = {}, options?: RequestOptions): AsyncGenerator<CveRecord> {
    let cursor: string | undefined;
    do {
      const page = await this.list({ limit: PAGE_LIMIT_MAX, ...filters, ...(cursor ? { cursor } : {}) }, options);
      yield* page.records;
      cursor = page.pagination.nextCursor ?? undefined;
    } while (cursor);
  }

  /**
   * `GET /api/v1/cve-records/changes`: one page of changes after `since` (a token from `pagination.next`, or a
   * date-time), oldest first. Keep `pagination.next` for the next call.
   */
  changes(params: ChangesParams = {}, options?: RequestOptions): Promise<RecordChangesPage> {
    return this.#transport.json({ method: 'GET', path: '/api/v1/cve-records/changes', query: params }, options);
  }

  /**
   * Every change after `since`, page after page (1,000 a page unless `limit` says otherwise), until the feed
   * is caught up. Returns the token to pass as `since` at the next poll.
   */
  async *changesSince(
    since?: string,
    params: Omit<ChangesParams, 'since'> = {},
    options?: RequestOptions,
  ): AsyncGenerator<RecordChange, string> {
    let token = since;
    for (;;) {
      const page = await this.changes({ limit: CHANGES_LIMIT_MAX, ...params, ...(token ? { since: token } : {}) }, options);
      yield* page.changes;
      token = page.pagination.next;
      if (!page.pagination.hasMore) return token;
    }
  }

  /**
   * `GET /api/v1/cve-records/changes/stream`: each change as the service takes it, for as long as the loop
   * runs, with `next`, the token right after it. With `since` (a `next`, a feed token or a date-time) the
   * changes after it come first; without, the changes from now on. When the connection drops or the service
   * restarts, it reconnects by itself and resumes right after the last change yielded: nothing is missed and
   * nothing comes twice. Keep the last `next` and pass it as `since` to resume in a later run. Leaving the loop,
   * or aborting `options.signal`, closes the stream; a bad `since` rejects with status 400.
   */
  async *follow(params: FollowParams = {}, options: RequestOptions = {}): AsyncGenerator<FollowedChange> {
    let resumeAfter: string | undefined;
    for (let attempt = 0; ; attempt++) {
      // EventSource would send Last-Event-ID; `lastEventId` says the same without a header.
      const query = resumeAfter === undefined ? params : { ...params, lastEventId: resumeAfter };
      let answer: Awaited<ReturnType<Transport['stream']>>;
      try {
        answer = await this.#transport.stream(
          { method: 'GET', path: '/api/v1/cve-records/changes/stream', query, accept: 'text/event-stream' },
          options,
        );
      } catch (error) {
        // The first connection's failure is the caller's to see; a later one is the service restarting.
        if (attempt === 0 || !(error instanceof CveRecordsError) || error.code !== 'network_error') throw error;
        await sleep(Math.min(30_000, 1000 * attempt), options.signal);
        continue;
      }
      const { response, deadline } = answer;
      try {
        if (response.body) {
          for await (const { event, data, id } of readServerSentEvents(response.body)) {
            if (id !== undefined) resumeAfter = id;
            if (event !== 'message' || id === undefined) continue;
            yield { change: JSON.parse(data) as RecordChange, next: id };
          }
        }
        attempt = 0;
      } catch (error) {
        if (error instanceof SyntaxError || options.signal?.aborted) {
          throw deadline.failure(error, error instanceof SyntaxError ? 'invalid_response' : 'network_error');
        }
      } finally {
        deadline.release();
      }
      await sleep(RECONNECT_MS, options.signal);
    }
  }

  /** `GET /api/v1/cve-records/{recordId}`; an unknown id rejects with status 404, code `record_not_found`. */
  get(recordId: string, options?: RequestOptions): Promise<CveRecord> {
    return this.#transport.json({ method: 'GET', path: '/api/v1/cve-records/{recordId}', pathParams: { recordId } }, options);
  }

  /**
   * `POST /api/v1/cve-records/batch` for any number of ids: duplicates are dropped, the rest sent 50 a
   * call, one call after another, and `records` and `missing` come back in the order of `recordIds`.
   */
  batchGet(recordIds: Iterable<string>, options?: RequestOptions): Promise<BatchResponse> {
    return this.#batches<BatchResponse>('/api/v1/cve-records/batch', recordIds, options);
  }

  /**
   * `GET /api/v1/cve-records/{recordId}/details`: the record with its description, CVSS scores, CWEs, KEV
   * entry, SSVC decision points, affected products and references.
   */
  getDetails(recordId: string, options?: RequestOptions): Promise<CveRecordDetails> {
    return this.#transport.json({ method: 'GET', path: '/api/v1/cve-records/{recordId}/details', pathParams: { recordId } }, options);
  }

  /** `POST /api/v1/cve-records/details/batch` for any number of ids, as `batchGet` sends them. */
  batchGetDetails(recordIds: Iterable<string>, options?: RequestOptions): Promise<DetailsBatchResponse> {
    return this.#batches<DetailsBatchResponse>('/api/v1/cve-records/details/batch', recordIds, options);
  }

  /**
   * `POST /api/v1/cve-records/version-checks/batch` for any number of checks, sent 100 a call, one call after
   * another: `results` answers each query in the order of `queries` with the ids of the records saying its
   * version is affected (and, with `includeUnknown`, those that cannot tell).
   */
  async checkVersions(
    queries: Iterable<VersionCheckQuery>,
    params: { includeUnknown?: boolean } = {},
    options?: RequestOptions,
  ): Promise<VersionCheckResponse> {
    const all = [...queries];
    const answer: VersionCheckResponse = { results: [] };
    for (let start = 0; start < all.length; start += VERSION_CHECK_MAX_QUERIES) {
      const body = { ...params, queries: all.slice(start, start + VERSION_CHECK_MAX_QUERIES) };
      const part = await this.#transport.json<VersionCheckResponse>(
        { method: 'POST', path: '/api/v1/cve-records/version-checks/batch', body },
        options,
      );
      answer.results.push(...part.results);
    }
    return answer;
  }

  async #batches<T extends { records: unknown[]; missing: string[] }>(
    path: '/api/v1/cve-records/batch' | '/api/v1/cve-records/details/batch',
    recordIds: Iterable<string>,
    options: RequestOptions | undefined,
  ): Promise<T> {
    const unique = [...new Set(recordIds)];
    const answer = { records: [], missing: [] } as unknown as T;
    for (let start = 0; start < unique.length; start += BATCH_MAX_IDS) {
      const body = { recordIds: unique.slice(start, start + BATCH_MAX_IDS) };
      const part = await this.#transport.json<T>({ method: 'POST', path, body }, options);
      answer.records.push(...part.records);
      answer.missing.push(...part.missing);
    }
    return answer;
  }

  /**
   * `GET /api/v1/cve-records/export`: every record, with its `published` and `modified` dates, yielded as
   * the download arrives. One request for the whole catalog; the service sends it gzip-compressed and
   * fetch inflates it. Leaving the loop early, or aborting `options.signal`, closes the connection.
   */
  async *export(options: RequestOptions = {}): AsyncGenerator<ExportRecord> {
    const { response, deadline } = await this.#transport.stream(
      { method: 'GET', path: '/api/v1/cve-records/export', accept: 'application/x-ndjson' },
      options,
    );
    try {
      if (!response.body) return;
      for await (const line of readLines(response.body)) yield JSON.parse(line) as ExportRecord;
    } catch (error) {
      throw deadline.failure(error, error instanceof SyntaxError ? 'invalid_response' : 'network_error');
    } finally {
      deadline.release();
    }
  }
}

function searchParams(query: string | SearchParams): SearchParams {
  return typeof query === 'string' ? { query } : query;
}

/**
 * Types the contract does not name (a newer service) are skipped, so every message yielded is typed;
 * so is `result_batch`, which only repeats the `result` messages for older NLWeb UIs.
 */
function isSearchMessage(message: { message_type?: unknown }): message is SearchMessage {
  return message.message_type !== 'result_batch' && (SEARCH_MESSAGE_TYPES as readonly unknown[]).includes(message.message_type);
}
