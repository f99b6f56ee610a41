// The per-address limit on every public request (404s and discovery documents included). CORS
// preflights, which browsers send on their own, are answered before the limit (edge.ts) and not counted; so
// are a trusted proxy's own requests (its health checks, edge/client-address.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../../contract/index.js';
import { secondsText } from '../../shared/wording.js';
import { rateKey } from '../client-address.js';
import { sendError } from '../error-handler.js';
import { addHeaderLines, headerLines } from '../header-block.js';
import type { RateDecision, RatePolicy, RateStore } from './gcra.js';

/** The name draft-ietf-httpapi-ratelimit-headers-10 gives a service's only policy in its examples. */
const POLICY_NAME = '"default"';

/**
 * Whether the request may go on: true or false at once from a store that decides in this process, a
 * promise of it from one that asks elsewhere (Redis). On false the 429 is on its way.
 */
export type Limiter = (request: FastifyRequest, reply: FastifyReply) => boolean | Promise<boolean>;

/**
 * The spec's four headers, plus `RateLimit` of draft-ietf-httpapi-ratelimit-headers-10. `RateLimit-Policy`
 * takes the draft's form (`"default";q=120;w=60`): the draft requires each item to be a String and
 * clients to ignore a malformed field, so no value can also keep the older drafts' `120;w=60` item;
 * clients of those drafts read the limit from `RateLimit-Limit` and the window from the same `w`.
 * The two that depend only on the policy are constant lines; per request, three more made of integers.
 */
function rateLimitHeaders(policy: RatePolicy): (reply: FastifyReply, decision: RateDecision) => void {
  const constant = headerLines({
    'ratelimit-limit': String(policy.limit),
    'ratelimit-policy': `${POLICY_NAME};q=${policy.limit};w=${policy.windowSeconds}`,
  });
  return (reply, decision) => {
    // Integers only (gcra.ts): lines that need no check (header-block.ts).
    addHeaderLines(
      reply,
      `${constant}ratelimit-remaining: ${decision.remaining}\r\nratelimit-reset: ${decision.resetSeconds}\r\n` +
        `ratelimit: ${POLICY_NAME};r=${decision.remaining};t=${decision.nextSeconds}\r\n`,
    );
  };
}

/** The limiter the edge's onRequest hook runs (after the preflight check); closes the store with the server. */
export function registerRateLimit(app: FastifyInstance, policy: RatePolicy, store: RateStore): Limiter {
  const setHeaders = rateLimitHeaders(policy);
  /** Sets the headers; on a refusal sends the 429 and answers false: the request goes no further. */
  const apply = (request: FastifyRequest, reply: FastifyReply, decision: RateDecision): boolean => {
    setHeaders(reply, decision);
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
  app.addHook('onClose', async () => store.close?.());
  // The in-process store answers synchronously and pays for no promise per request.
  return (request, reply) => {
    if (request.fromTrustedProxy) return true;
    const decision = store.hit(rateKey(request.client));
    return decision instanceof Promise ? decision.then((value) => apply(request, reply, value)) : apply(request, reply, decision);
  };
}
