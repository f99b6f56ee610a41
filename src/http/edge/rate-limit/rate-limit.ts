// The per-address limit on every public request (404s and discovery documents included). CORS
// preflights, which browsers send on their own, are answered before this hook and not counted; so are a
// trusted proxy's own requests (its health checks, edge/client-address.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../../contract/index.js';
import { secondsText } from '../../shared/wording.js';
import { rateKey } from '../client-address.js';
import { sendError } from '../error-handler.js';
import type { RateDecision, RatePolicy, RateStore } from './gcra.js';

/** The name draft-ietf-httpapi-ratelimit-headers-10 gives a service's only policy in its examples. */
const POLICY_NAME = '"default"';

/**
 * The spec's four headers, plus `RateLimit` of draft-ietf-httpapi-ratelimit-headers-10. `RateLimit-Policy`
 * takes the draft's form (`"default";q=120;w=60`): the draft requires each item to be a String and
 * clients to ignore a malformed field, so no value can also keep the older drafts' `120;w=60` item;
 * clients of those drafts read the limit from `RateLimit-Limit` and the window from the same `w`.
 */
export function setRateLimitHeaders(reply: FastifyReply, decision: RateDecision, policy: RatePolicy): void {
  reply.header('ratelimit-limit', decision.limit);
  reply.header('ratelimit-remaining', decision.remaining);
  reply.header('ratelimit-reset', decision.resetSeconds);
  reply.header('ratelimit-policy', `${POLICY_NAME};q=${policy.limit};w=${policy.windowSeconds}`);
  reply.header('ratelimit', `${POLICY_NAME};r=${decision.remaining};t=${decision.nextSeconds}`);
}

export function registerRateLimit(app: FastifyInstance, policy: RatePolicy, store: RateStore): void {
  /** Sets the headers; on a refusal sends the 429 and answers false: the request goes no further. */
  const apply = (request: FastifyRequest, reply: FastifyReply, decision: RateDecision): boolean => {
    setRateLimitHeaders(reply, decision, policy);
    if (decision.allowed) return true;
    reply.header('retry-after', decision.retryAfterSeconds);
    sendError(
      request,
      reply,
      new ServiceError('rate_limited', `Too many requests from this address; retry after ${secondsText(decision.retryAfterSeconds)}.`, {
        limit: decision.limit,
        windowSeconds: policy.windowSeconds,
        retryAfterSeconds: decision.retryAfterSeconds,
      }),
    );
    return false;
  };
  // A plain hook, not an async one: the in-process store answers synchronously and should not pay
  // for a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.fromTrustedProxy) return done();
    const decision = store.hit(rateKey(request.client));
    // A hook that answered does not call done(): the reply may still be on its way out (a surface's
    // onSend hook can rewrite it asynchronously), and done() would run the route's handler meanwhile.
    if (!(decision instanceof Promise)) {
      if (apply(request, reply, decision)) done();
      return;
    }
    decision.then((value) => {
      if (apply(request, reply, value)) done();
    }, done);
  });
  app.addHook('onClose', async () => store.close?.());
}
