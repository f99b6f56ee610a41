// The surface for people: the records page at `/`, the API reference at `/docs`, record pages and the
// files the pages load. `/` and `/docs` serve programs too: browsers, which rank text/html first, get the
// page and the reference viewer; scripts (no Accept, */*, JSON or Markdown) get the JSON index and the
// Markdown guide.
import type { FastifyPluginAsync } from 'fastify';
import { API_GUIDE } from '../shared/api-guide.js';
import type { SurfaceContext } from '../shared/context.js';
import { byAccept } from '../shared/negotiation.js';
import { PATHS } from '../shared/paths.js';
import { serviceIndex } from '../shared/service-index.js';
import { DOCS_ASSETS, sendDocsViewer } from './docs-page.js';
import { homePage } from './home-page.js';
import { PAGE_ASSETS } from './page-assets.js';
import { rateLimitedPage } from './rate-limited-page.js';
import { RECORD_PAGE_ROUTE, recordPage } from './record-page.js';
import { registerAssets } from './static-assets.js';

export const webSurface: FastifyPluginAsync<SurfaceContext> = async (app, ctx) => {
  app.addHook('onSend', rateLimitedPage(ctx));
  const index = serviceIndex(ctx.description);
  const catalogLink = `<${ctx.config.baseUrl}${PATHS.apiCatalog}>; rel="api-catalog"`;
  const root = byAccept('application/json', homePage(ctx), (_request, reply) => reply.type('application/json; charset=utf-8').send(index));
  app.get(PATHS.home, { config: { caching: 'public' } }, (request, reply) => root(request, reply.header('link', catalogLink)));

  const guide = Buffer.from(API_GUIDE);
  const docs = byAccept(
    'text/markdown',
    (_request, reply) => sendDocsViewer(reply),
    (_request, reply) => reply.header('content-type', 'text/markdown; charset=utf-8').send(guide),
  );
  app.get(PATHS.apiReference, { config: { caching: 'public' } }, docs);

  app.get(RECORD_PAGE_ROUTE, { config: { caching: 'public' } }, recordPage(ctx));
  registerAssets(app, [...Object.values(PAGE_ASSETS), ...Object.values(DOCS_ASSETS)]);
};
