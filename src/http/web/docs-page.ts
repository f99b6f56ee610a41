// `/docs` for people: the OpenAPI document rendered by Swagger UI, whose files this service serves
// itself, so the reference works offline and under a policy that names no other origin.
import type { FastifyReply } from 'fastify';
import { PATHS } from '../shared/paths.js';
import { DOCS_CSP } from './content-security-policy.js';
import { html } from './html.js';
import { PAGE_ASSETS } from './page-assets.js';
import { SITE_NAME, siteHeader } from './page-layout.js';
import { asset, CSS, JAVASCRIPT, ownAsset, packageAsset } from './static-assets.js';

const ASSETS = PATHS.docsAssets;

/** The files of the API reference, besides those of every page. */
export const DOCS_ASSETS = {
  viewer: asset(`${ASSETS}/swagger-ui-bundle.js`, JAVASCRIPT, packageAsset('swagger-ui-dist/swagger-ui-bundle.js')),
  viewerStylesheet: asset(`${ASSETS}/swagger-ui.css`, CSS, packageAsset('swagger-ui-dist/swagger-ui.css')),
  script: asset(`${ASSETS}/api-reference.js`, JAVASCRIPT, ownAsset('api-reference.js')),
  stylesheet: asset(`${ASSETS}/api-reference.css`, CSS, ownAsset('api-reference.css')),
} as const;

const viewer = Buffer.from(
  html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · ${SITE_NAME}</title>
<meta name="description" content="Reference of the Public CVE Records API, rendered from its OpenAPI 3.1 document.">
<link rel="icon" href="${PAGE_ASSETS.icon.href}" type="image/svg+xml">
<link rel="stylesheet" href="${PAGE_ASSETS.stylesheet.href}">
<link rel="stylesheet" href="${DOCS_ASSETS.viewerStylesheet.href}">
<link rel="stylesheet" href="${DOCS_ASSETS.stylesheet.href}">
<link rel="service-desc" type="application/openapi+json" href="${PATHS.openapi}">
<script src="${DOCS_ASSETS.viewer.href}" defer></script>
<script src="${DOCS_ASSETS.script.href}" defer></script>
<script src="${PAGE_ASSETS.browserTools.href}" defer></script>
</head>
<body>
${siteHeader(PATHS.apiReference)}
<main id="main" tabindex="-1">
<h1 class="visually-hidden">API reference</h1>
<div id="api-reference">
<noscript><p>The reference is drawn by a script. Without it, read the <a href="${PATHS.apiGuide}">API guide</a> or the
<a href="${PATHS.openapi}">OpenAPI document</a> itself.</p></noscript>
</div>
</main>
</body>
</html>
`.text,
);

export function sendDocsViewer(reply: FastifyReply): FastifyReply {
  return reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', DOCS_CSP).send(viewer);
}
