// A browser that reached the rate limit on a page gets a page saying how long to wait, as a 400 or a 404
// of the pages does, instead of the JSON error the limiter sends everyone. The limiter answers before
// any route runs, so the page replaces that answer on its way out (an onSend hook of this surface).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SurfaceContext } from '../shared/context.js';
import { negotiate } from '../shared/negotiation.js';
import { PATHS } from '../shared/paths.js';
import { secondsText } from '../shared/wording.js';
import { PAGE_CSP } from './content-security-policy.js';
import { html } from './html.js';
import { renderPage } from './page-layout.js';

export function rateLimitedPage(ctx: SurfaceContext) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    if (reply.statusCode !== 429 || negotiate(request.headers.accept, ['application/json', 'text/html']) !== 'text/html') return payload;
    const wait = secondsText(Number(reply.getHeader('retry-after')) || 1);
    const main = html`<h1>Too many requests</h1>
<p>This address has sent more requests than the service answers in a short time. Wait ${wait}, then
<a href="${request.url}">try again</a>.</p>
<p>Programs that need many records at once can use the <a href="${PATHS.export}">export</a> (one request for every record).</p>`;
    reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', PAGE_CSP).header('vary', 'Accept');
    return renderPage({ title: 'Too many requests', description: `Wait ${wait} before the next request.`, main }, ctx.store.current).text;
  };
}
