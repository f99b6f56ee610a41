// A page per record, `/records/CVE-…`: everything the service knows of it, with links to its project's
// records, its public record and its JSON. An unknown or malformed id is a 404 page with a search form.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { recordDetails } from '../../core/details.js';
import type { SurfaceContext } from '../shared/context.js';
import { PATHS } from '../shared/paths.js';
import { searchForm } from './finder-forms.js';
import { html } from './html.js';
import { renderPage, sendPage } from './page-layout.js';
import { detailRows } from './record-details-view.js';
import { projectLink, publicRecordLink, STATUS_EXPLANATIONS, statusBadge } from './record-view.js';

export const RECORD_PAGE_ROUTE = `${PATHS.recordPages}/:recordId`;

export function recordPage(ctx: SurfaceContext): (request: FastifyRequest, reply: FastifyReply) => FastifyReply {
  return (request, reply) => {
    const { recordId } = request.params as { recordId: string };
    const snapshot = ctx.store.current;
    const entry = snapshot.get(recordId);
    if (!entry) {
      const main = html`<h1>No record ${recordId}</h1>
<p>This service has no record with this identifier. It lists cleared records only; search for another one.</p>
${searchForm(undefined)}`;
      return sendPage(reply, 404, renderPage({ title: `No record ${recordId}`, description: 'No such record.', main }, snapshot));
    }
    const { record, summary, published } = entry;
    const details = recordDetails(entry);
    const json = `${PATHS.records}/${record.id}`;
    const main = html`<nav class="breadcrumb" aria-label="Breadcrumb"><a href="${PATHS.home}">Records</a> › <span aria-current="page">${record.id}</span></nav>
<h1>${record.id}</h1>
<dl class="record-fields">
<dt>Project</dt>
<dd>${projectLink(record.project)}</dd>
<dt>Status</dt>
<dd>${statusBadge(record.status)} ${STATUS_EXPLANATIONS[record.status]}</dd>
${published ? html`<dt>Published</dt><dd><time datetime="${published}">${published}</time></dd>` : ''}
<dt>Public record</dt>
<dd>${record.url ? publicRecordLink(record.url, record.url) : 'None yet.'}</dd>
${details.description ? html`<dt>Description</dt><dd class="summary-text">${details.description}</dd>` : summary ? html`<dt>Summary</dt><dd class="summary-text">${summary}</dd>` : ''}
${detailRows(details)}
<dt>As JSON</dt>
<dd><a href="${json}" type="application/json"><code>${json}</code></a>, with its details: <a href="${json}/details" type="application/json"><code>${json}/details</code></a></dd>
</dl>`;
    const description = `${record.id}, ${record.project}: ${STATUS_EXPLANATIONS[record.status]}`;
    return sendPage(
      reply,
      200,
      renderPage({ title: `${record.id} (${record.project})`, description, main, project: record.project }, snapshot),
    );
  };
}
