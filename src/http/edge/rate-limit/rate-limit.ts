// The per-address limit on every public request (404s and discovery documents included). CORS
// preflights, which browsers send on their own, are answered before this hook and not counted.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ServiceError } from '../../../contract/index.js';
import { sendError } from '../error-handler.js';
import type { RateDecision, RatePolicy } from './gcra.js';
import { MemoryRateStore } from './gcra.js';

export function setRateLimitHeaders(reply: FastifyReply, decision: RateDecision, policy: RatePolicy): void {
  reply.header('ratelimit-limit', decision.limit);
  reply.header('ratelimit-remaining', decision.remaining);
  reply.header('ratelimit-reset', decision.resetSeconds);
  reply.header('ratelimit-policy', `${policy.limit};w=${policy.windowSeconds}`);
}

export function registerRateLimit(app: FastifyInstance, policy: RatePolicy, store = new MemoryRateStore(policy)): void {
  app.addHook('onRequest', (request, reply, done) => {
    const decision = store.hit(request.ip);
    setRateLimitHeaders(reply, decision, policy);
    if (decision.allowed) return done();
    reply.header('retry-after', decision.retryAfterSeconds);
    sendError(
      request,
      reply,
      new ServiceError('rate_limited', `Too many requests from this address; retry after ${decision.retryAfterSeconds} seconds.`, {
        limit: decision.limit,
        windowSeconds: policy.windowSeconds,
        retryAfterSeconds: decision.retryAfterSeconds,
      }),
    );
    done();
  });
}
