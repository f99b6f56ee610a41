// GET and POST /ask: NLWeb-compatible search, as JSON or as a Server-Sent Events stream.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { operations, type AskQuery, type NlwebResponse, type NlwebResult } from '../../contract/index.js';
import { DEFAULT_SEARCH_PHRASE, searchRecords } from '../../core/search/search.js';
import type { ServiceContext } from '../context.js';
import { operation, operationRoute } from '../rest/route-options.js';
import { toNlwebResult } from './nlweb-results.js';

const RESULT_LIMIT = 10;

export function registerAskRoute(app: FastifyInstance, ctx: ServiceContext): void {
  const op = operation(operations, 'searchPublicRecordsWithNlweb');
  const answer = (params: AskQuery, request: FastifyRequest, reply: FastifyReply) => {
    const query = params.query?.trim() || DEFAULT_SEARCH_PHRASE;
    const queryId = randomUUID();
    const results = searchRecords(ctx.store.current, query, RESULT_LIMIT).map((hit) =>
      toNlwebResult(hit, ctx.config.baseUrl, ctx.config.siteName),
    );
    const wantsStream = params.stream === true || (request.headers.accept ?? '').includes('text/event-stream');
    reply.header('vary', 'Accept');
    if (!wantsStream) return { query_id: queryId, results } satisfies NlwebResponse;
    return streamResults(reply, queryId, query, results);
  };
  app.route(operationRoute(op, (request, reply) => answer(request.query as AskQuery, request, reply)));
  app.route({
    ...operationRoute({ ...op, method: 'POST', query: undefined, body: op.postBody }, (request, reply) =>
      answer((request.body ?? {}) as AskQuery, request, reply),
    ),
  });
}

function streamResults(reply: FastifyReply, queryId: string, query: string, results: NlwebResult[]): FastifyReply {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
  });
  const send = (event: string, data: unknown) => raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send('start', { query_id: queryId, query });
  results.forEach((item, index) => send('result', { index, item }));
  send('complete', { query_id: queryId, count: results.length });
  raw.end();
  return reply;
}
