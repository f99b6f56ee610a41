// The surface for people: record pages and the files the pages load. `/` and `/docs` are negotiated
// with the documents of the same paths in discovery/discovery-routes.ts.
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.js';
import { browserToolsAsset } from './browser-tools.js';
import { docsAssets } from './docs-page.js';
import { RECORD_PAGE_PATH, recordPage } from './record-page.js';
import { CSS, JAVASCRIPT, ownAsset, registerAssets } from './static-assets.js';

export function registerWebRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.get(RECORD_PAGE_PATH, { config: { caching: 'public' } }, recordPage(ctx));
  registerAssets(app, [
    { path: '/web/page.css', type: CSS, body: ownAsset('page.css') },
    { path: '/web/page.js', type: JAVASCRIPT, body: ownAsset('page.js') },
    { path: '/web/favicon.svg', type: 'image/svg+xml', body: ownAsset('favicon.svg') },
    browserToolsAsset(),
    ...docsAssets(),
  ]);
}
