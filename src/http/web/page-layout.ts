// The frame of every page: head, site header, footer, and the headers an HTML answer needs.
import type { FastifyReply } from 'fastify';
import type { Snapshot } from '../../core/snapshot.js';
import { feedPath, PATHS } from '../shared/paths.js';
import { PAGE_CSP } from './content-security-policy.js';
import { type Html, html } from './html.js';
import { PAGE_ASSETS } from './page-assets.js';

export const SITE_NAME = 'Public CVE Records';

export interface Page {
  readonly title: string;
  readonly description: string;
  readonly main: Html;
  /** The entry of the site navigation this page belongs to. */
  readonly section?: SiteSection;
  /** The project the page is about, whose Atom feed it offers besides the whole catalog's. */
  readonly project?: string | undefined;
}

const SITE_SECTIONS = [
  [PATHS.home, 'Records'],
  [PATHS.apiReference, 'API reference'],
  [PATHS.apiGuide, 'API guide'],
  [PATHS.openapi, 'OpenAPI'],
] as const;

export type SiteSection = (typeof SITE_SECTIONS)[number][0];

/** The skip link and the band at the top of every page, the API reference's included. */
export function siteHeader(current: SiteSection | undefined): Html {
  return html`<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
<a class="brand" href="${PATHS.home}">${SITE_NAME}</a>
<nav aria-label="Site">
<ul>
${SITE_SECTIONS.map(([path, label]) => html`<li><a href="${path}"${path === current ? html` aria-current="page"` : ''}>${label}</a></li>`)}
</ul>
</nav>
</header>`;
}

export function renderPage(page: Page, snapshot: Snapshot): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · ${SITE_NAME}</title>
<meta name="description" content="${page.description}">
<link rel="icon" href="${PAGE_ASSETS.icon.href}" type="image/svg+xml">
<link rel="stylesheet" href="${PAGE_ASSETS.stylesheet.href}">
<link rel="alternate" type="application/json" href="${PATHS.records}" title="Records as JSON">
<link rel="service-desc" type="application/openapi+json" href="${PATHS.openapi}">
<link rel="alternate" type="application/atom+xml" href="${feedPath()}" title="Newly published CVE records">
${
  page.project === undefined
    ? ''
    : html`<link rel="alternate" type="application/atom+xml" href="${feedPath(page.project)}" title="Newly published CVE records: ${page.project}">
`
}<script src="${PAGE_ASSETS.script.href}" defer></script>
<script src="${PAGE_ASSETS.browserTools.href}" defer></script>
</head>
<body>
${siteHeader(page.section)}
<main id="main" tabindex="-1">
${page.main}
</main>
<footer class="site-footer">
<p>${snapshot.size.toLocaleString('en-US')} cleared CVE records, last verified ${snapshot.lastVerified}. Read-only: no sign-in, no
writes. Public access to a record is not authorization for security testing.</p>
<p><a href="${PATHS.apiReference}">API reference</a> · <a href="${PATHS.apiGuide}">API guide</a> · <a href="${PATHS.openapi}">OpenAPI 3.1</a> ·
<a href="${PATHS.lifecyclePolicy}">Lifecycle policy</a> · <a href="${PATHS.browserTools}">Browser tools (WebMCP)</a> ·
<a href="${feedPath()}" type="application/atom+xml">Atom feed</a> · <a href="${PATHS.export}" type="application/x-ndjson" download>Export (NDJSON)</a></p>
</footer>
<p id="live-status" class="visually-hidden" role="status" aria-live="polite"></p>
</body>
</html>
`;
}

export function sendPage(reply: FastifyReply, status: number, page: Html): FastifyReply {
  return reply.code(status).header('content-type', 'text/html; charset=utf-8').header('content-security-policy', PAGE_CSP).send(page.text);
}
