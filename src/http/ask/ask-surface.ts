// GET and POST /ask: NLWeb-compatible search, as JSON or as a Server-Sent Events stream. The same search
// answers both, so the stream and the JSON carry the same results for the same query.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AskQuery, errorMember, type NlwebResponse, operations, ServiceError } from '../../contract/index.js';
import { searchWhenReady } from '../../core/search/search.js';
import type { SurfaceContext } from '../shared/context.js';
import { toNlwebResult } from '../shared/result-shaping.js';
import { operation, operationRoute, rejectRepeatedParameters } from '../shared/route-options.js';
import { type AskRequest, flattenStructuredBody, normalizeFlags, toAskRequest } from './ask-request.js';
import { openEventStream } from './event-stream.js';

export const askSurface: FastifyPluginAsync<SurfaceContext> = async (app, ctx) => {
  const op = operation(operations, 'searchPublicRecordsWithNlweb');

  const answer = (params: AskQuery, request: FastifyRequest, reply: FastifyReply) => {
    const ask = toAskRequest(params, request);
    reply.header('vary', 'Accept');
    const run = async (): Promise<NlwebResponse> => {
      const found = await searchWhenReady(ctx.store.current, ask.query, ask.limit);
      return {
        query_id: ask.queryId,
        query: ask.query,
        understood: [...found.explanation],
        results: found.hits.map((hit) => toNlwebResult(hit, ctx.config.baseUrl, ctx.config.siteName)),
      };
    };
    return ask.stream ? streamAnswer(reply, request, ask, run) : run();
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
};

/**
 * The stream opens before the search runs, so a client sees `start` at once; a search that fails then
 * becomes an `error` event followed by `complete`, as NLWeb clients expect, instead of a broken stream.
 */
async function streamAnswer(
  reply: FastifyReply,
  request: FastifyRequest,
  ask: AskRequest,
  run: () => Promise<NlwebResponse>,
): Promise<FastifyReply> {
  const stream = openEventStream(reply);
  let count = 0;
  let understood: string[] | undefined;
  if (await stream.send('start', { query_id: ask.queryId, query: ask.query })) {
    try {
      const response = await run();
      understood = response.understood;
      for (const [index, item] of response.results.entries()) {
        if (!(await stream.send('result', { index, item }))) break;
        count++;
      }
    } catch (error) {
      request.log.error({ err: error }, 'search failed mid-stream');
      const { code, message } = errorMember(new ServiceError('internal_error'));
      await stream.send('error', { code, message, requestId: request.id });
    }
  }
  await stream.send('complete', { query_id: ask.queryId, count, ...(understood ? { understood } : {}) });
  stream.end();
  return reply;
}
