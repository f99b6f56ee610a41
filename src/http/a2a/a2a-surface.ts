// The A2A surface: the agent card at its well-known path and JSON-RPC at POST /a2a, both inside the
// edge. The SDK's DefaultRequestHandler does the protocol; the Express adapters it ships are replaced
// by the few lines that speak to Fastify, so the edge wraps these routes like every other.
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import type { FastifyPluginAsync } from 'fastify';
import type { SurfaceContext } from '../shared/context.js';
import { PATHS } from '../shared/paths.js';
import { agentCard, agentCardDocument } from './agent-card.js';
import { jsonRpcExchange } from './json-rpc.js';
import { recordAgent } from './record-agent.js';

export const a2aSurface: FastifyPluginAsync<SurfaceContext> = async (app, ctx) => {
  const card = agentCard(ctx.config);
  // The task store stays empty: every answer is a Message. It is there because GetTask and the other
  // task methods must find nothing (TaskNotFound) rather than fail.
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), recordAgent(ctx));
  const exchange = jsonRpcExchange(requestHandler, card);

  // One card for every reader, rendered once, at 1.0's path and at 0.3's. It lists the 0.3 interface
  // too, which is what lets 0.3 requests (no A2A-Version header) through validateVersion.
  const body = Buffer.from(JSON.stringify(agentCardDocument(card)));
  for (const path of [PATHS.agentCard, PATHS.legacyAgentCard]) {
    app.get(path, { config: { caching: 'public' } }, (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
  }

  // The body is read here, not by Fastify: malformed JSON is a JSON-RPC parse error, not a REST 400.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  // A POST with no body and no content type reaches no parser: its body is absent, which reads as empty
  // text (a parse error), not as a string to measure.
  app.post(PATHS.a2a, (request) => exchange(typeof request.body === 'string' ? request.body : '', request.headers));
};
