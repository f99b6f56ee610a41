// The A2A surface: the agent card at its well-known path and JSON-RPC at POST /a2a, both inside the
// edge. The SDK's DefaultRequestHandler does the protocol; the Express adapters it ships are replaced
// by the few lines that speak to Fastify, so the edge wraps these routes like every other.
import { AgentCard } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.js';
import { A2A_PATH, AGENT_CARD_PATH, agentCard } from './agent-card.js';
import { jsonRpcExchange } from './json-rpc.js';
import { recordAgent } from './record-agent.js';

export async function registerA2aRoutes(app: FastifyInstance, ctx: ServiceContext): Promise<void> {
  const card = agentCard(ctx.config);
  // The task store stays empty: every answer is a Message. It is there because GetTask and the other
  // task methods must find nothing (TaskNotFound) rather than fail.
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), recordAgent(ctx));
  const exchange = jsonRpcExchange(requestHandler, card);

  // One card for every reader, rendered once: the canonical JSON of the 1.0 AgentCard. It lists the 0.3
  // interface too, which is what lets 0.3 requests (no A2A-Version header) through validateVersion.
  const body = Buffer.from(JSON.stringify(AgentCard.toJSON(card)));
  app.get(AGENT_CARD_PATH, { config: { caching: 'public' } }, (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(body),
  );

  await app.register(async (scope) => {
    // The body is read here, not by Fastify: malformed JSON is a JSON-RPC parse error, not a REST 400.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.post(A2A_PATH, (request) => exchange(request.body as string, request.headers));
  });
}
