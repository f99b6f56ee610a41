// How a record, its project and its status read on the pages, and the page URLs that lead to them.
import {
  type CveRecord,
  type FormField,
  LIST_FILTERS,
  type ListFilterTable,
  type ListFilterValues,
  type RecordStatus,
  type Severity,
} from '../../contract/index.js';
import { PATHS, recordPagePath } from '../shared/paths.js';
import { type Html, html } from './html.js';

/** The list filters the page offers: those of the contract's table with a form field, in the table's order. */
export function pageFilters(table: ListFilterTable): [name: string, field: FormField][] {
  return Object.entries(table).flatMap(([name, { form }]) => (form ? [[name, form] as [string, FormField]] : []));
}

/** The words a choice of the filter form says for a value. */
const choiceWords = (form: FormField | undefined): Readonly<Record<string, string>> => (form?.kind === 'choice' ? form.choices : {});

export const STATUS_LABELS = choiceWords(LIST_FILTERS.status.form) as Readonly<Record<RecordStatus, string>>;

export const STATUS_EXPLANATIONS: Readonly<Record<RecordStatus, string>> = {
  public: 'The CVE record is published.',
  'assigned-no-public-record': 'The identifier is assigned and cleared, but no public record exists yet.',
};

/** A severity in words, as its badge and the filter form name it. */
export const severityLabel = (severity: Severity): string => choiceWords(LIST_FILTERS.severity.form)[severity]!;

/** A view of the page: a search, or the list with the filters the page offers, at a place. */
export interface ListView extends ListFilterValues {
  readonly cursor?: string | undefined;
  readonly query?: string | undefined;
}

/** `/` with the given view; absent and empty values are left out, so the first page of everything is just `/`. */
export function homeUrl(view: ListView): string {
  const params = new URLSearchParams();
  const values = view as Readonly<Record<string, unknown>>;
  for (const name of ['query', ...pageFilters(LIST_FILTERS).map(([name]) => name), 'cursor']) {
    const value = values[name];
    // `kev=false` is a filter too: only what is absent or empty is left out.
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${PATHS.home}?${search}` : PATHS.home;
}

export function recordLink(record: CveRecord): Html {
  return html`<a href="${recordPagePath(record.id)}">${record.id}</a>`;
}

/**
 * A project name isolated from the text around it (`<bdi>`): a name with right-to-left characters, or
 * a control character the data should not hold, cannot reorder what surrounds it.
 */
export function projectLink(project: string): Html {
  return html`<a href="${homeUrl({ project })}" data-enhance><bdi>${project}</bdi></a>`;
}

/** A link to a record's public page, only when that is a web address; anything else is shown as text. */
export function publicRecordLink(url: string, content: Html | string): Html {
  return /^https?:\/\//i.test(url) ? html`<a href="${url}" rel="external noopener">${content}</a>` : html`<span>${content}</span>`;
}

export function statusBadge(status: RecordStatus): Html {
  return html`<span class="status status-${status}">${STATUS_LABELS[status]}</span>`;
}
