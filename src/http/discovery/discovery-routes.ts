// Documents about the service: the OpenAPI contract, the RFC 9727 catalog, the lifecycle policy, the
// API guide (/docs/guide.md, and /docs for clients that do not ask for HTML), the guide for agents
// (/llms.txt) and the root index. Each is rendered once at start: they change only with the settings.
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { serviceLinks } from '../../core/service-info.js';
import { SERVICE_NAME, SERVICE_VERSION } from '../../version.js';
import type { ServiceContext } from '../context.js';
import { sendDocsViewer } from '../web/docs-page.js';
import { homePage } from '../web/home-page.js';
import { byAccept } from '../web/negotiation.js';
import { API_CATALOG_CONTENT_TYPE, API_CATALOG_PATH, apiCatalog } from './api-catalog.js';
import { LLMS_TXT_PATH, llmsTxt } from './llms-txt.js';
import { buildOpenApiDocument } from './openapi.js';
import { lifecyclePolicy } from './policy.js';

const apiGuide = readFileSync(new URL('../../../docs/API.md', import.meta.url), 'utf8');

export function registerDiscoveryRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { baseUrl } = ctx.config;
  const documents: Array<[path: string, type: string, body: string]> = [
    ['/openapi.json', 'application/json; charset=utf-8', JSON.stringify(buildOpenApiDocument(ctx.config))],
    [API_CATALOG_PATH, API_CATALOG_CONTENT_TYPE, JSON.stringify(apiCatalog(ctx.config))],
    ['/api-policy.md', 'text/markdown; charset=utf-8', lifecyclePolicy(ctx.config)],
    ['/docs/guide.md', 'text/markdown; charset=utf-8', apiGuide],
    [LLMS_TXT_PATH, 'text/markdown; charset=utf-8', llmsTxt(ctx.config)],
  ];
  for (const [path, type, text] of documents) {
    // A Buffer goes out as is: Fastify would append a charset to a string, and a media type such as
    // the catalog's must reach the client exactly as registered.
    const body = Buffer.from(text);
    app.get(path, { config: { caching: 'public' } }, (_request, reply) => reply.header('content-type', type).send(body));
  }

  // `/` and `/docs` are also pages (src/http/web): browsers, which rank text/html first, get the page
  // and the API reference viewer; scripts (no Accept, */*, JSON or Markdown) get the index and the guide.
  const index = JSON.stringify({ name: SERVICE_NAME, version: SERVICE_VERSION, links: serviceLinks(baseUrl) });
  const root = byAccept('application/json', homePage(ctx), (_request, reply) => reply.type('application/json; charset=utf-8').send(index));
  app.get('/', { config: { caching: 'public' } }, (request, reply) =>
    root(request, reply.header('link', `<${baseUrl}${API_CATALOG_PATH}>; rel="api-catalog"`)),
  );
  const guide = Buffer.from(apiGuide);
  const docs = byAccept(
    'text/markdown',
    (_request, reply) => sendDocsViewer(reply),
    (_request, reply) => reply.header('content-type', 'text/markdown; charset=utf-8').send(guide),
  );
  app.get('/docs', { config: { caching: 'public' } }, docs);
}
