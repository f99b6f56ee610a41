// What a caller asked of /ask, whichever way it was sent: GET parameters, a POST JSON object or form with
// the same names, or the NLWeb structured body. Everything ends up as one AskRequest.
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ASK_LIMIT, type AskQuery, type AskStructuredBody } from '../../contract/index.js';
import { queryToSearch } from '../../core/search/search.js';

export interface AskRequest {
  readonly query: string;
  readonly queryId: string;
  readonly limit: number;
  readonly stream: boolean;
}

/** NLWeb's structured body, flattened to the GET parameter names before validation. */
export function flattenStructuredBody(body: unknown): unknown {
  if (!isObject(body) || !isObject(body.query)) return body;
  const { query, prefer, meta, ...rest } = body as AskStructuredBody & Record<string, unknown>;
  const flat: Record<string, unknown> = { ...rest };
  const put = (name: string, value: unknown) => {
    if (value !== undefined) flat[name] = value;
  };
  for (const [name, value] of Object.entries(query)) {
    if (name === 'text') put('query', value);
    else if (name === 'prev') put('prev', Array.isArray(value) ? value.join(',') : value);
    else put(name, value);
  }
  if (isObject(prefer)) for (const [name, value] of Object.entries(prefer)) put(name, value);
  else put('prefer', prefer);
  if (isObject(meta)) put('query_id', meta.query_id);
  else put('meta', meta);
  return flat;
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

/** The search asked for. The answer mode needs no reading: the contract admits only `list`. */
export function toAskRequest(params: AskQuery, request: FastifyRequest): AskRequest {
  const accept = request.headers.accept ?? '';
  return {
    query: queryToSearch(params.query),
    queryId: params.query_id ?? randomUUID(),
    limit: params.limit ?? ASK_LIMIT.default,
    stream: params.stream ?? params.streaming ?? accept.includes('text/event-stream'),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
