// The page at `/` for people: search (the /ask search), the list filtered by the filters the contract's table
// gives a form field (a version of a project: the records saying it is affected, each with the entry that
// says so) and paged by cursor. Every view is a URL (`/?query=`, `/?project=&status=&…&cursor=`),
// rendered here in full, so it works without JavaScript; the page script only loads the next view in place.
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import {
  filterProperties,
  LIST_FILTERS,
  type ListFilterName,
  type ListFilterValues,
  MAX_CURSOR_LENGTH,
  MAX_QUERY_LENGTH,
  requestCheck,
  ServiceError,
} from '../../contract/index.js';
import { filtersReady, planPage, prepareFilters } from '../../core/list.js';
import { type RecordTable, recordAt, severityAt } from '../../core/record-table.js';
import { searchWhenReady } from '../../core/search/search.js';
import type { Snapshot } from '../../core/snapshot.js';
import { versionSubjects } from '../../core/version-subjects.js';
import { describeVerdict } from '../../core/versions/record-check.js';
import type { SurfaceContext } from '../shared/context.js';
import { PATHS } from '../shared/paths.js';
import { toNlwebResult } from '../shared/result-shaping.js';
import { filterForm, searchForm } from './finder-forms.js';
import { type Html, html } from './html.js';
import { renderPage, sendPage } from './page-layout.js';
import { projectDirectory } from './project-directory.js';
import { kevBadge, severityBadge } from './record-details-view.js';
import { homeUrl, type ListView, pageFilters, projectLink, publicRecordLink, recordLink, statusBadge } from './record-view.js';

export const PAGE_SIZE = 50;
export const SEARCH_RESULTS = 20;
/** Long summaries are cut in the table; the record's page shows them whole. */
const SNIPPET_CHARACTERS = 240;
/** The columns riskCells fills, in both tables. */
const RISK_COLUMNS = ['Severity', 'Exploitation'] as const;

/** A query string the page cannot show, said in words for the person who typed it. */
class ViewProblem extends Error {}
/** What the list refuses in a view's filters, said as the list says it. */
const VIEW_ERRORS: ReadonlySet<string> = new Set(['invalid_cursor', 'invalid_parameter']);

export function homePage(ctx: SurfaceContext): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  return async (request, reply) => {
    const snapshot = ctx.store.current;
    let view: ListView = {};
    let status = 200;
    let results: Html;
    try {
      view = readView(request.query);
      results = view.query ? await searchResults(ctx, snapshot, view.query) : await listResults(ctx, snapshot, view);
    } catch (error) {
      if (!(error instanceof ViewProblem) && !(error instanceof ServiceError && VIEW_ERRORS.has(error.code))) throw error;
      status = 400;
      results = problemResults(
        error instanceof ViewProblem
          ? error.message
          : error.code === 'invalid_cursor'
            ? 'This page link is not valid any more, or was made for other filters.'
            : error.message,
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

/** The page's filters as the list takes them (`kev=true` a boolean), checked by the list's own schemas. */
const PAGE_FILTERS = pageFilters(LIST_FILTERS);
const checkFilters = requestCheck(
  Type.Object(filterProperties(Object.fromEntries(PAGE_FILTERS.map(([name]) => [name, LIST_FILTERS[name as ListFilterName]])))),
  'querystring',
);

function readView(query: unknown): ListView {
  const fields = (query ?? {}) as Record<string, unknown>;
  const field = (name: string, maxLength = Infinity): string | undefined => {
    const value = fields[name];
    if (Array.isArray(value)) throw new ViewProblem(`“${name}” is given more than once.`);
    const text = typeof value === 'string' ? value.trim() : '';
    if (text.length > maxLength) throw new ViewProblem(`“${name}” is longer than ${maxLength} characters.`);
    return text || undefined;
  };
  const given: Record<string, string> = {};
  for (const [name, form] of PAGE_FILTERS) {
    const text = field(name, (LIST_FILTERS[name as ListFilterName].schema as { maxLength?: number }).maxLength);
    if (text === undefined) continue;
    if (form.kind === 'choice' && !Object.hasOwn(form.choices, text)) {
      const choices = Object.entries(form.choices).map(([value, words]) =>
        value === words.toLowerCase() ? value : `${value} (${words.toLowerCase()})`,
      );
      throw new ViewProblem(`“${name}” is “${text}”: it is ${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}.`);
    }
    given[name] = text;
  }
  let filters: ListFilterValues;
  try {
    filters = checkFilters(given);
  } catch (error) {
    const name = error instanceof ServiceError ? String((error.details as { parameter?: string }).parameter) : '';
    if (!(name in given)) throw error;
    throw new ViewProblem(`“${given[name]}” is not a valid ${name}.`);
  }
  return { ...filters, query: field('query', MAX_QUERY_LENGTH), cursor: field('cursor', MAX_CURSOR_LENGTH) };
}

/** The list filters of a view, without its place: what page links keep and a cursor is bound to. */
function listFiltersOf(view: ListView): ListFilterValues {
  const values = view as Readonly<Record<string, unknown>>;
  return Object.fromEntries(PAGE_FILTERS.map(([name]) => [name, values[name]]));
}

/** The list filters of a view in words, as the table's form fields say them: `project OpenSSL`, `severity Critical`. */
function filterWords(view: ListView): string[] {
  const values = view as Readonly<Record<string, unknown>>;
  return PAGE_FILTERS.flatMap(([name, form]) => {
    const value = values[name];
    if (value === undefined || value === '') return [];
    const words = form.kind === 'choice' ? form.choices[String(value)]! : String(value);
    return [(form.said ?? `${name} {}`).replace('{}', words)];
  });
}

function titleOf(view: ListView): string {
  if (view.query) return `Search: ${view.query}`;
  const filters = filterWords(view);
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
    const { record, position } = hit.entry;
    return html`<tr>
<th scope="row">${recordLink(record)}</th>
<td>${projectLink(record.project)}</td>
<td>${statusBadge(record.status)}</td>
${riskCells(snapshot.table, position)}
<td class="number">${score.toFixed(2)}</td>
<td class="snippet">${shorten(snippet)}</td>
</tr>`;
  });
  return resultsSection(
    `Search results for “${query}”`,
    summary,
    html`<p class="reading">Read as: ${found.explanation.map((line, i) => html`${i > 0 ? '; ' : ''}<span>${line}</span>`)}.
<a href="${PATHS.home}" data-enhance>Show all records</a></p>
${count > 0 ? recordsTable('Search results, best first', ['Record', 'Project', 'Status', ...RISK_COLUMNS, 'Score', 'Summary'], rows) : ''}`,
  );
}

async function listResults(ctx: SurfaceContext, snapshot: Snapshot, view: ListView): Promise<Html> {
  const filtersOnly = listFiltersOf(view);
  const query = { ...filtersOnly, limit: PAGE_SIZE, cursor: view.cursor };
  // A version reads the version index and counts its records in steps, as the list operation does.
  if (!filtersReady(snapshot, query)) await prepareFilters(snapshot, query);
  // The page's positions rather than its records: the severity and KEV columns are read at them.
  const page = planPage(snapshot, query, ctx.cursors);
  const why = view.version === undefined ? undefined : whyAffected(snapshot, view.project!, view.version);
  const { total, nextCursor } = page;
  const returned = page.positions.length;
  const filters = filterWords(view);
  const heading = `${total.toLocaleString('en-US')} ${plural(total, 'record', 'records')}${filters.map((f) => ` · ${f}`).join('')}`;
  const summary =
    total === 0
      ? `No records${filters.length > 0 ? ` with ${filters.join(' and ')}` : ''}.`
      : `Showing ${returned} of ${total.toLocaleString('en-US')} ${plural(total, 'record', 'records')}${view.cursor ? ' (a later page)' : ''}, newest first.`;
  const rows = page.positions.map((position) => {
    const record = recordAt(snapshot.table, position);
    return html`<tr>
<th scope="row">${recordLink(record)}</th>
<td>${projectLink(record.project)}</td>
<td>${statusBadge(record.status)}</td>
${riskCells(snapshot.table, position)}
${why ? html`<td class="why">${why(position)}</td>` : ''}
<td>${record.url ? publicRecordLink(record.url, html`cve.org<span class="visually-hidden"> record of ${record.id}</span>`) : html`<span class="none">none yet</span>`}</td>
</tr>`;
  });
  const columns = ['Record', 'Project', 'Status', ...RISK_COLUMNS, ...(why ? [`Why ${view.version} is affected`] : []), 'Public record'];
  return resultsSection(
    heading,
    summary,
    html`${total === 0 ? otherSpellings(snapshot, view) : recordsTable('Records, newest first', columns, rows)}
<nav class="pager" aria-label="Pages">
${view.cursor ? html`<a href="${homeUrl(filtersOnly)}" data-enhance>First page</a>` : ''}
${nextCursor ? html`<a href="${homeUrl({ ...filtersOnly, cursor: nextCursor })}" rel="next" data-enhance>Next ${PAGE_SIZE} records</a>` : ''}
</nav>`,
  );
}

/** For a page of records a version affects: the entry of each record that says so, in words. */
function whyAffected(snapshot: Snapshot, project: string, version: string): (position: number) => string {
  const [subject] = versionSubjects(snapshot, { project, version });
  const index = snapshot.versions.get();
  return (position) => {
    const verdict = subject?.check(position);
    const versions = index.versionsAt(position);
    return verdict && versions ? describeVerdict(versions, verdict) : '';
  };
}

/**
 * A record's highest CVSS severity and whether it is known exploited (CISA KEV), read from the record
 * table's columns at its position: the details' JSON is never parsed for a table.
 */
function riskCells(table: RecordTable, position: number): Html {
  const severity = severityAt(table, position);
  return html`<td class="severity-cell">${severity ? severityBadge(severity) : html`<span class="none">not scored</span>`}</td>
<td class="kev-cell">${table.kev[position] === 1 ? kevBadge() : ''}</td>`;
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
