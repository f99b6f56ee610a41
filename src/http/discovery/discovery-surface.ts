// Documents about the service: the OpenAPI contract, the RFC 9727 catalog, the lifecycle policy, the
// API guide and the guide for agents (/llms.txt). Each is rendered once at start: they change only with
// the settings. (`/` and `/docs`, which are pages for people too, belong to the web surface.)
import type { FastifyPluginAsync } from 'fastify';
import { API_GUIDE } from '../shared/api-guide.js';
import type { SurfaceContext } from '../shared/context.js';
import { PATHS } from '../shared/paths.js';
import { API_CATALOG_CONTENT_TYPE, apiCatalog } from './api-catalog.js';
import { llmsTxt } from './llms-txt.js';
import { buildOpenApiDocument } from './openapi.js';
import { lifecyclePolicy } from './policy.js';

export const discoverySurface: FastifyPluginAsync<SurfaceContext> = async (app, ctx) => {
  const documents: Array<[path: string, type: string, body: string]> = [
    [PATHS.openapi, 'application/json; charset=utf-8', JSON.stringify(buildOpenApiDocument(ctx.config))],
    [PATHS.apiCatalog, API_CATALOG_CONTENT_TYPE, JSON.stringify(apiCatalog(ctx.config))],
    [PATHS.lifecyclePolicy, 'text/markdown; charset=utf-8', lifecyclePolicy(ctx.config)],
    [PATHS.apiGuide, 'text/markdown; charset=utf-8', API_GUIDE],
    [PATHS.llmsTxt, 'text/markdown; charset=utf-8', llmsTxt(ctx.config)],
  ];
  for (const [path, type, text] of documents) {
    // A Buffer goes out as is: Fastify would append a charset to a string, and a media type such as
    // the catalog's must reach the client exactly as registered.
    const body = Buffer.from(text);
    app.get(path, { config: { caching: 'public' } }, (_request, reply) => reply.header('content-type', type).send(body));
  }
};
