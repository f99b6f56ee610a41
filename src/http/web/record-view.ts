// How a record, its project and its status read on the pages, and the page URLs that lead to them.
import type { CveRecord, RecordStatus, Severity } from '../../contract/index.js';
import { PATHS, recordPagePath } from '../shared/paths.js';
import { type Html, html } from './html.js';

export const STATUS_LABELS: Readonly<Record<RecordStatus, string>> = {
  public: 'Public',
  'assigned-no-public-record': 'Assigned, not yet public',
};

export const STATUS_EXPLANATIONS: Readonly<Record<RecordStatus, string>> = {
  public: 'The CVE record is published.',
  'assigned-no-public-record': 'The identifier is assigned and cleared, but no public record exists yet.',
};

export interface ListView {
  readonly project?: string | undefined;
  /** A version of the project: only the records saying it is affected, each with the entry that says so. */
  readonly version?: string | undefined;
  readonly status?: RecordStatus | undefined;
  readonly severity?: Severity | undefined;
  readonly kev?: boolean | undefined;
  readonly cursor?: string | undefined;
  readonly query?: string | undefined;
}

/** `/` with the given view; absent and empty values are left out, so the first page of everything is just `/`. */
export function homeUrl(view: ListView): string {
  const params = new URLSearchParams();
  for (const name of ['query', 'project', 'version', 'status', 'severity', 'kev', 'cursor'] as const) {
    const value = view[name];
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
