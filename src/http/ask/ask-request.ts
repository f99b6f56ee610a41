// What a caller asked of /ask, whichever way it was sent: GET parameters, a POST JSON object or form with
// the same names, or the NLWeb structured body. Everything ends up as one AskRequest.
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ASK_ANSWER_MODE, ASK_LIMIT, type AskQuery, type AskStructuredBody, NLWEB_IGNORED_PARAMETERS } from '../../contract/index.js';
import { queryToSearch } from '../../core/search/search.js';

export interface AskRequest {
  readonly query: string;
  readonly queryId: string;
  readonly limit: number;
  readonly stream: boolean;
  /** The request speaks NLWeb (`streaming`, its name of `stream`): JSON results are NLWeb items. */
  readonly nlwebItems: boolean;
  /** The mode asked for, when it was not plain `list` (answered as a list all the same). */
  readonly requestedMode: string | undefined;
  /** NLWeb parameters given that have no effect here, by name. */
  readonly ignored: readonly string[];
}

/** What an answer reports of its request: the mode used and what had no effect (the contract's answer notes). */
export function answerNotes(ask: AskRequest): { mode: typeof ASK_ANSWER_MODE; requested_mode?: string; ignored?: string[] } {
  return {
    mode: ASK_ANSWER_MODE,
    ...(ask.requestedMode !== undefined ? { requested_mode: ask.requestedMode } : {}),
    ...(ask.ignored.length > 0 ? { ignored: [...ask.ignored] } : {}),
  };
}

/** NLWeb's structured body, flattened to the GET parameter names before validation. */
export function flattenStructuredBody(body: unknown): unknown {
  if (!isObject(body) || !isObject(body.query)) return body;
  const { query, context, prefer, meta, ...rest } = body as AskStructuredBody & Record<string, unknown>;
  const flat: Record<string, unknown> = { ...rest };
  const put = (name: string, value: unknown) => {
    if (value !== undefined) flat[name] = value;
  };
  for (const [name, value] of Object.entries(query)) {
    if (name === 'text') put('query', value);
    else if (name === 'num_results') put('limit', value);
    else if (name === 'prev') put('prev', joinPrevious(value));
    else put(name, value);
  }
  // The conversation is not read, only reported as ignored under its flat name.
  if (isObject(context)) put('prev', joinPrevious(context.prev));
  else put('context', context);
  if (isObject(prefer)) for (const [name, value] of Object.entries(prefer)) put(name, value);
  else put('prefer', prefer);
  if (isObject(meta)) put('query_id', meta.query_id);
  else put('meta', meta);
  return flat;
}

function joinPrevious(value: unknown): unknown {
  return Array.isArray(value) ? JSON.stringify(value) : value;
}

/** NLWeb clients send `streaming=1`/`0`; JSON Schema coercion only knows `true`/`false`. */
export function normalizeFlags(fields: unknown): unknown {
  if (!isObject(fields)) return fields;
  for (const name of ['stream', 'streaming']) {
    if (fields[name] === '1' || fields[name] === 1) fields[name] = true;
    else if (fields[name] === '0' || fields[name] === 0) fields[name] = false;
  }
  return fields;
}

/** The search asked for, and what of the request this service cannot honour. */
export function toAskRequest(params: AskQuery, request: FastifyRequest, siteName: string): AskRequest {
  const accept = request.headers.accept ?? '';
  const mode = params.mode ?? params.generate_mode;
  const ignored: string[] = NLWEB_IGNORED_PARAMETERS.filter((name) => params[name] !== undefined);
  // This service is one site: NLWeb's `all` and its own name are what it searches anyway.
  if (params.site !== undefined && params.site !== 'all' && params.site !== siteName) ignored.unshift('site');
  return {
    // NLWeb's restated query stands for the whole conversation, so it is the one searched when given.
    query: queryToSearch(params.decontextualized_query?.trim() || params.query),
    queryId: params.query_id ?? randomUUID(),
    limit: params.limit ?? ASK_LIMIT.default,
    stream: params.stream ?? params.streaming ?? accept.includes('text/event-stream'),
    nlwebItems: params.streaming !== undefined,
    requestedMode: mode === undefined || mode.trim() === ASK_ANSWER_MODE ? undefined : mode.trim(),
    ignored,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
