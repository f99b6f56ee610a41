// GET and POST /ask: NLWeb-compatible search, as JSON or as a Server-Sent Events stream; and NLWeb's
// /sites. The same search answers both forms of /ask, so the stream and the JSON carry the same results.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  AskQuery,
  errorMember,
  type NlwebItem,
  type NlwebItemsResponse,
  type NlwebResponse,
  operations,
  ServiceError,
} from '../../contract/index.js';
import { type SearchHit, type SearchResult, searchWhenReady } from '../../core/search/search.js';
import type { SurfaceContext } from '../shared/context.js';
import { toNlwebItem, toNlwebResult } from '../shared/result-shaping.js';
import { operation, operationRoute, rejectRepeatedParameters } from '../shared/route-options.js';
import { type AskRequest, answerNotes, flattenStructuredBody, normalizeFlags, toAskRequest } from './ask-request.js';
import { openEventStream } from './event-stream.js';

export const askSurface: FastifyPluginAsync<SurfaceContext> = async (app, ctx) => {
  const op = operation(operations, 'searchPublicRecordsWithNlweb');
  const { baseUrl, siteName } = ctx.config;

  const answer = (params: AskQuery, request: FastifyRequest, reply: FastifyReply) => {
    const ask = toAskRequest(params, request, siteName);
    reply.header('vary', 'Accept');
    const search = () => searchWhenReady(ctx.store.current, ask.query, ask.limit);
    const toItem = (hit: SearchHit) => toNlwebItem(hit, baseUrl, siteName);
    if (ask.stream) return streamAnswer(reply, request, ask, search, toItem);
    return search().then((found): NlwebResponse | NlwebItemsResponse => ({
      query_id: ask.queryId,
      query: ask.query,
      understood: [...found.explanation],
      ...answerNotes(ask),
      // A spec client gets the spec's closed NlwebResult; one that speaks NLWeb, the items NLWeb sends.
      results: found.hits.map(ask.nlwebItems ? toItem : (hit) => toNlwebResult(hit, baseUrl, siteName)),
    }));
  };

  app.route({
    ...operationRoute(op, (request, reply) => answer(request.query as AskQuery, request, reply)),
    preValidation: (request, reply, done) => {
      normalizeFlags(request.query);
      rejectRepeatedParameters(request, reply, done);
    },
  });

  // POST takes a JSON object (flat or NLWeb structured) or a form; the form parser belongs to this
  // surface, so other POSTs keep answering a form with 400 unsupported_media_type.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const fields: Record<string, string | string[]> = {};
    for (const [name, value] of new URLSearchParams(body as string)) {
      const seen = fields[name];
      fields[name] = seen === undefined ? value : ([] as string[]).concat(seen, value);
    }
    done(null, fields);
  });
  app.route({
    ...operationRoute({ ...op, method: 'POST', query: undefined, body: AskQuery }, (request, reply) =>
      answer((request.body ?? {}) as AskQuery, request, reply),
    ),
    preValidation: (request, _reply, done) => {
      request.body = normalizeFlags(flattenStructuredBody(request.body));
      done();
    },
  });

  app.route(operationRoute(operation(operations, 'listNlwebSites'), () => ({ 'message-type': 'sites', sites: [siteName] })));
};

/**
 * The stream opens before the search runs, so a client sees `begin-nlweb-response` at once; a search
 * that fails then becomes an `error` message before the end, as NLWeb clients expect, instead of a
 * broken stream. `complete` always comes last: NLWeb UIs close their EventSource on it.
 */
async function streamAnswer(
  reply: FastifyReply,
  request: FastifyRequest,
  ask: AskRequest,
  search: () => Promise<SearchResult>,
  toItem: (hit: SearchHit) => NlwebItem,
): Promise<FastifyReply> {
  const stream = openEventStream(reply);
  const query_id = ask.queryId;
  const sent: NlwebItem[] = [];
  let understood: string[] | undefined;
  if (await stream.send({ message_type: 'begin-nlweb-response', query_id, query: ask.query, ...answerNotes(ask) })) {
    try {
      const found = await search();
      understood = [...found.explanation];
      for (const hit of found.hits) {
        const item = toItem(hit);
        if (!(await stream.send({ message_type: 'result', query_id, content: [item] }))) break;
        sent.push(item);
      }
      if (sent.length > 0) await stream.send({ message_type: 'result_batch', query_id, results: sent });
    } catch (error) {
      request.log.error({ err: error }, 'search failed mid-stream');
      const { code, message } = errorMember(new ServiceError('internal_error'));
      await stream.send({ message_type: 'error', query_id, message, code, requestId: request.id });
    }
  }
  await stream.send({ message_type: 'end-nlweb-response', query_id });
  await stream.send({ message_type: 'complete', query_id, count: sent.length, ...(understood ? { understood } : {}) });
  stream.end();
  return reply;
}
