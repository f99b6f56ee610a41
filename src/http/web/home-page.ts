// The page at `/` for people: search (the /ask search), the list filtered by project and status and
// paged by cursor. Every view is a URL (`/?query=`, `/?project=&status=&cursor=`), rendered here in
// full, so it works without JavaScript; the page script only loads the next view in place.
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  MAX_CURSOR_LENGTH,
  MAX_PROJECT_LENGTH,
  MAX_QUERY_LENGTH,
  RECORD_STATUSES,
  type RecordStatus,
  ServiceError,
} from '../../contract/index.js';
import { listRecords } from '../../core/list.js';
import { searchWhenReady } from '../../core/search/search.js';
import type { Snapshot } from '../../core/snapshot.js';
import type { SurfaceContext } from '../shared/context.js';
import { PATHS } from '../shared/paths.js';
import { toNlwebResult } from '../shared/result-shaping.js';
import { filterForm, searchForm } from './finder-forms.js';
import { type Html, html } from './html.js';
import { renderPage, sendPage } from './page-layout.js';
import { projectDirectory } from './project-directory.js';
import { homeUrl, type ListView, projectLink, publicRecordLink, recordLink, STATUS_LABELS, statusBadge } from './record-view.js';

export const PAGE_SIZE = 50;
export const SEARCH_RESULTS = 20;
/** Long summaries are cut in the table; the record's page shows them whole. */
const SNIPPET_CHARACTERS = 240;

/** A query string the page cannot show, said in words for the person who typed it. */
class ViewProblem extends Error {}

export function homePage(ctx: SurfaceContext): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  return async (request, reply) => {
    const snapshot = ctx.store.current;
    let view: ListView = {};
    let status = 200;
    let results: Html;
    try {
      view = readView(request.query);
      results = view.query ? await searchResults(ctx, snapshot, view.query) : listResults(ctx, snapshot, view);
    } catch (error) {
      if (!(error instanceof ViewProblem) && !(error instanceof ServiceError && error.code === 'invalid_cursor')) throw error;
      status = 400;
      results = problemResults(
        error instanceof ViewProblem ? error.message : 'This page link is not valid any more, or was made for other filters.',
      );
    }
    const main = html`<h1>Cleared CVE records</h1>
<p class="lede">Search and browse the cleared CVE records this service publishes. Programs can read the same
records through the <a href="${PATHS.apiReference}">API</a>.</p>
<div class="finders">
${searchForm(view.query)}
${filterForm(view, projectDirectory(snapshot))}
</div>
${results}`;
    return sendPage(
      reply,
      status,
      renderPage(
        { title: titleOf(view), description: 'Search and browse cleared CVE records.', main, section: PATHS.home, project: view.project },
        snapshot,
      ),
    );
  };
}

function readView(query: unknown): ListView {
  const fields = (query ?? {}) as Record<string, unknown>;
  const field = (name: keyof ListView, maxLength = Infinity): string | undefined => {
    const value = fields[name];
    if (Array.isArray(value)) throw new ViewProblem(`“${name}” is given more than once.`);
    const text = typeof value === 'string' ? value.trim() : '';
    if (text.length > maxLength) throw new ViewProblem(`“${name}” is longer than ${maxLength} characters.`);
    return text || undefined;
  };
  const status = field('status');
  if (status !== undefined && !RECORD_STATUSES.includes(status as RecordStatus)) {
    throw new ViewProblem(`“${status}” is not a status. The statuses are: ${RECORD_STATUSES.join(', ')}.`);
  }
  return {
    query: field('query', MAX_QUERY_LENGTH),
    project: field('project', MAX_PROJECT_LENGTH),
    status: status as RecordStatus | undefined,
    cursor: field('cursor', MAX_CURSOR_LENGTH),
  };
}

function titleOf(view: ListView): string {
  if (view.query) return `Search: ${view.query}`;
  const filters = [view.project, view.status && STATUS_LABELS[view.status]].filter(Boolean);
  return filters.length > 0 ? `Records: ${filters.join(', ')}` : 'Records';
}

/** The same search and results /ask answers with, shown as a table of records. */
async function searchResults(ctx: SurfaceContext, snapshot: Snapshot, query: string): Promise<Html> {
  const found = await searchWhenReady(snapshot, query, SEARCH_RESULTS);
  const count = found.hits.length;
  const summary =
    count === 0
      ? `No records match “${query}”.`
      : count === SEARCH_RESULTS
        ? `The best ${count} matches for “${query}”.`
        : `${count} ${plural(count, 'match', 'matches')} for “${query}”, best first.`;
  const rows = found.hits.map((hit) => {
    const { score, snippet } = toNlwebResult(hit, ctx.config.baseUrl, ctx.config.siteName);
    const { record } = hit.entry;
    return html`<tr>
<th scope="row">${recordLink(record)}</th>
<td>${projectLink(record.project)}</td>
<td>${statusBadge(record.status)}</td>
<td class="number">${score.toFixed(2)}</td>
<td class="snippet">${shorten(snippet)}</td>
</tr>`;
  });
  return resultsSection(
    `Search results for “${query}”`,
    summary,
    html`<p class="reading">Read as: ${found.explanation.map((line, i) => html`${i > 0 ? '; ' : ''}<span>${line}</span>`)}.
<a href="${PATHS.home}" data-enhance>Show all records</a></p>
${count > 0 ? recordsTable('Search results, best first', ['Record', 'Project', 'Status', 'Score', 'Summary'], rows) : ''}`,
  );
}

function listResults(ctx: SurfaceContext, snapshot: Snapshot, view: ListView): Html {
  const page = listRecords(snapshot, { limit: PAGE_SIZE, project: view.project, status: view.status, cursor: view.cursor }, ctx.cursors);
  const { total, returned, nextCursor } = page.pagination;
  const filters = [view.project && `project ${view.project}`, view.status && `status ${STATUS_LABELS[view.status]}`].filter(Boolean);
  const heading = `${total.toLocaleString('en-US')} ${plural(total, 'record', 'records')}${filters.map((f) => ` · ${f}`).join('')}`;
  const summary =
    total === 0
      ? `No records${filters.length > 0 ? ` with ${filters.join(' and ')}` : ''}.`
      : `Showing ${returned} of ${total.toLocaleString('en-US')} ${plural(total, 'record', 'records')}${view.cursor ? ' (a later page)' : ''}, newest first.`;
  const rows = page.records.map(
    (record) => html`<tr>
<th scope="row">${recordLink(record)}</th>
<td>${projectLink(record.project)}</td>
<td>${statusBadge(record.status)}</td>
<td>${record.url ? publicRecordLink(record.url, html`cve.org<span class="visually-hidden"> record of ${record.id}</span>`) : html`<span class="none">none yet</span>`}</td>
</tr>`,
  );
  const filtersOnly = { project: view.project, status: view.status };
  return resultsSection(
    heading,
    summary,
    html`${total === 0 ? otherSpellings(snapshot, view) : recordsTable('Records, newest first', ['Record', 'Project', 'Status', 'Public record'], rows)}
<nav class="pager" aria-label="Pages">
${view.cursor ? html`<a href="${homeUrl(filtersOnly)}" data-enhance>First page</a>` : ''}
${nextCursor ? html`<a href="${homeUrl({ ...filtersOnly, cursor: nextCursor })}" rel="next" data-enhance>Next ${PAGE_SIZE} records</a>` : ''}
</nav>`,
  );
}

/** The project filter is exact and case-sensitive: point at the names that differ only in case. */
function otherSpellings(snapshot: Snapshot, view: ListView): Html {
  const spellings = view.project
    ? projectDirectory(snapshot)
        .spellingsOf(view.project)
        .filter((name) => name !== view.project)
    : [];
  if (spellings.length === 0) return html``;
  return html`<p>Project names are matched exactly. Did you mean
${spellings.map((name, i) => html`${i > 0 ? ' or ' : ''}${projectLink(name)}`)}?</p>`;
}

function problemResults(message: string): Html {
  return resultsSection('The page could not be shown', message, html`<p><a href="${PATHS.home}" data-enhance>Show all records</a></p>`);
}

/** The part of the page a view changes; `data-summary` is what the page script announces. */
function resultsSection(heading: string, summary: string, body: Html): Html {
  return html`<section id="results" class="results" aria-labelledby="results-heading" data-summary="${summary}">
<h2 id="results-heading" tabindex="-1">${heading}</h2>
<p class="summary">${summary}</p>
${body}
</section>`;
}

function recordsTable(caption: string, columns: readonly string[], rows: readonly Html[]): Html {
  return html`<div class="table-wrap">
<table class="records">
<caption class="visually-hidden">${caption}</caption>
<thead><tr>${columns.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
</div>`;
}

function shorten(text: string): string {
  if (text.length <= SNIPPET_CHARACTERS) return text;
  const cut = text.slice(0, SNIPPET_CHARACTERS);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : SNIPPET_CHARACTERS).replace(/[\s,.;:…]+$/, '')}…`;
}

function plural(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}
