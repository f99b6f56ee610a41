// `/docs` for people: the OpenAPI document rendered by Swagger UI, whose files this service serves
// itself, so the reference works offline and under a policy that names no other origin.
import type { FastifyReply } from 'fastify';
import { PATHS } from '../shared/paths.js';
import { DOCS_CSP } from './content-security-policy.js';
import { html } from './html.js';
import { SITE_NAME, siteHeader } from './page-layout.js';
import { type Asset, CSS, JAVASCRIPT, ownAsset, packageAsset } from './static-assets.js';

const ASSETS = PATHS.docsAssets;

export function docsAssets(): Asset[] {
  return [
    { path: `${ASSETS}/swagger-ui-bundle.js`, type: JAVASCRIPT, body: packageAsset('swagger-ui-dist/swagger-ui-bundle.js') },
    { path: `${ASSETS}/swagger-ui.css`, type: CSS, body: packageAsset('swagger-ui-dist/swagger-ui.css') },
    { path: `${ASSETS}/api-reference.js`, type: JAVASCRIPT, body: ownAsset('api-reference.js') },
    { path: `${ASSETS}/api-reference.css`, type: CSS, body: ownAsset('api-reference.css') },
  ];
}

const viewer = Buffer.from(
  html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · ${SITE_NAME}</title>
<meta name="description" content="Reference of the Public CVE Records API, rendered from its OpenAPI 3.1 document.">
<link rel="icon" href="${PATHS.webAssets}/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${PATHS.webAssets}/page.css">
<link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
<link rel="stylesheet" href="${ASSETS}/api-reference.css">
<link rel="service-desc" type="application/openapi+json" href="${PATHS.openapi}">
<script src="${ASSETS}/swagger-ui-bundle.js" defer></script>
<script src="${ASSETS}/api-reference.js" defer></script>
<script src="${PATHS.browserTools}" defer></script>
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
