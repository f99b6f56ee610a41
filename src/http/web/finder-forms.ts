// The two forms that find records: search (the /ask search) and the exact filters of the list the
// contract's table gives a form field (contract/list-filters.ts). Both are plain GET forms to `/`, so every view is a URL; the page script only
// loads it in place, and fills the project suggestions from the projects operation (`data-projects`).
import type { TSchema } from 'typebox';
import { LIST_FILTERS, type ListFilterTable, MAX_QUERY_LENGTH, type TextField } from '../../contract/index.js';
import { PATHS } from '../shared/paths.js';
import { type Html, html } from './html.js';
import type { ProjectDirectory } from './project-directory.js';
import { type ListView, pageFilters } from './record-view.js';

export function searchForm(query: string | undefined): Html {
  return html`<form class="search-form" role="search" action="${PATHS.home}" method="get" data-enhance>
<label for="search-query">Search records</label>
<div class="field-row">
<input id="search-query" name="query" type="search" value="${query ?? ''}" maxlength="${MAX_QUERY_LENGTH}" autocomplete="off" aria-describedby="search-hint">
<button type="submit">Search</button>
</div>
<p id="search-hint" class="hint">A CVE id, a project, a year (“since 2023”), “not yet public”, “critical”, “actively exploited”, “CWE-79”, or any words.</p>
</form>`;
}

/**
 * The list's filters the contract's table gives a form field, in its order: a text box (the project's with
 * the project names as suggestions) or a choice among the values of the filter's schema.
 */
export function filterForm(view: ListView, projects: ProjectDirectory, filters: ListFilterTable = LIST_FILTERS): Html {
  const values = view as Readonly<Record<string, unknown>>;
  const fields = pageFilters(filters).map(([name, field]) => {
    const hint = field.hint ? html` aria-describedby="${name}-hint"` : '';
    const control =
      field.kind === 'text'
        ? textBox(name, field, values[name], filters[name]!.schema, hint, projects)
        : html`<select id="filter-${name}" name="${name}"${hint}>
<option value="">${field.any}</option>
${Object.entries(field.choices).map(([value, words]) => html`<option value="${value}"${String(values[name]) === value ? html` selected` : ''}>${words}</option>`)}
</select>`;
    return html`\n<div>
<label for="filter-${name}">${field.label}</label>
${control}${field.hint ? html`\n<p id="${name}-hint" class="hint">${field.hint}</p>` : ''}
</div>`;
  });
  return html`<form class="filter-form" action="${PATHS.home}" method="get" data-enhance>
<fieldset>
<legend>Filter the list</legend>${fields}
<button type="submit">Apply filters</button>
</fieldset>
</form>`;
}

function textBox(name: string, field: TextField, given: unknown, schema: TSchema, hint: Html | string, projects: ProjectDirectory): Html {
  const { maxLength } = schema as { maxLength?: number };
  const length = maxLength === undefined ? '' : html` maxlength="${maxLength}"`;
  const value = html`value="${given === undefined ? '' : String(given)}"`;
  return field.suggestions === 'projects'
    ? html`<input id="filter-${name}" name="${name}" ${value}${length} list="${name}-suggestions" autocomplete="off"${hint} data-projects="${PATHS.projects}">
<datalist id="${name}-suggestions">${projects.suggested.map((suggestion) => html`<option value="${suggestion}"></option>`)}</datalist>`
    : html`<input id="filter-${name}" name="${name}" ${value}${length} autocomplete="off" spellcheck="false"${hint}>`;
}
