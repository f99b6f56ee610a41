// The two forms that find records: search (the /ask search) and the exact filters of the list (project
// and a version of it, status, severity, KEV). Both are plain GET forms to `/`, so every view is a URL; the page script only
// loads it in place, and fills the project suggestions from the projects operation (`data-projects`).
import { MAX_PROJECT_LENGTH, MAX_QUERY_LENGTH, MAX_VERSION_PARAMETER_LENGTH, RECORD_STATUSES, SEVERITIES } from '../../contract/index.js';
import { PATHS } from '../shared/paths.js';
import { type Html, html } from './html.js';
import type { ProjectDirectory } from './project-directory.js';
import { severityLabel } from './record-details-view.js';
import { type ListView, STATUS_LABELS } from './record-view.js';

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

export function filterForm(view: ListView, projects: ProjectDirectory): Html {
  return html`<form class="filter-form" action="${PATHS.home}" method="get" data-enhance>
<fieldset>
<legend>Filter the list</legend>
<div>
<label for="filter-project">Project</label>
<input id="filter-project" name="project" value="${view.project ?? ''}" maxlength="${MAX_PROJECT_LENGTH}" list="project-suggestions" autocomplete="off" aria-describedby="project-hint" data-projects="${PATHS.projects}">
<datalist id="project-suggestions">${projects.suggested.map((name) => html`<option value="${name}"></option>`)}</datalist>
<p id="project-hint" class="hint">The exact name, as in the table.</p>
</div>
<div>
<label for="filter-version">Version</label>
<input id="filter-version" name="version" value="${view.version ?? ''}" maxlength="${MAX_VERSION_PARAMETER_LENGTH}" autocomplete="off" spellcheck="false" aria-describedby="version-hint">
<p id="version-hint" class="hint">A version of the project, e.g. 3.0.7: the records saying it is affected, and why.</p>
</div>
<div>
<label for="filter-status">Status</label>
<select id="filter-status" name="status">
<option value="">Any status</option>
${RECORD_STATUSES.map((status) => html`<option value="${status}"${view.status === status ? html` selected` : ''}>${STATUS_LABELS[status]}</option>`)}
</select>
</div>
<div>
<label for="filter-severity">Severity</label>
<select id="filter-severity" name="severity" aria-describedby="severity-hint">
<option value="">Any severity</option>
${SEVERITIES.map((severity) => html`<option value="${severity}"${view.severity === severity ? html` selected` : ''}>${severityLabel(severity)}</option>`)}
</select>
<p id="severity-hint" class="hint">The highest CVSS rating. “None” is a score of 0.0.</p>
</div>
<div>
<label for="filter-kev">Known exploited (CISA KEV)</label>
<select id="filter-kev" name="kev">
<option value="">Either</option>
<option value="true"${view.kev === true ? html` selected` : ''}>Known exploited</option>
<option value="false"${view.kev === false ? html` selected` : ''}>Not known exploited</option>
</select>
</div>
<button type="submit">Apply filters</button>
</fieldset>
</form>`;
}
