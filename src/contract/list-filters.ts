// The list's filters, each declared once: its parameter schema and description, what it reads, how a cursor
// is bound to it, and how agents and the page name it. The list's query (REST, MCP, the browser tools, the
// SDK's types through the OpenAPI document), the list's description, the cursor binding, the change
// stream's filters, /llms.txt and the page's filter form are all made from this table; the core reads each
// filter with the selection of the same name (core/list-filter-selections.ts).
import Type, { type Static, type TOptional, type TSchema } from 'typebox';
import { SEVERITIES } from './details.js';
import { MAX_PROJECT_LENGTH, RecordStatus } from './records.js';

/** The longest version the version filters take: real versions are far shorter, and each check reads it once per range. */
export const MAX_VERSION_PARAMETER_LENGTH = 128;
/** A version: letters, digits and the separators versions use (`1.0.0-rc.1+build`, `0:4.18.0-553.el8_10`, `2.0~beta`). */
export const VERSION_PATTERN = '^[0-9A-Za-z][0-9A-Za-z._+~:^-]*$';

/** The longest package URL and CPE name the filters take: real ones are far shorter. */
export const MAX_PURL_LENGTH = 512;
export const MAX_CPE_LENGTH = 512;

/** `purl`, in the list's query and in a batch check. */
export const PurlParameter = Type.String({
  minLength: 5,
  maxLength: MAX_PURL_LENGTH,
  pattern: '^pkg:[^\\s]+$',
  description:
    "A package URL (purl), matched to the records' affected packages by `collectionURL` and `packageName`, for the " +
    'ecosystems the records use: `npm`, `pypi`, `maven`, `golang`, `cargo`, `nuget`, `gem`, `composer`, and WordPress ' +
    'as `pkg:wordpress/plugin/<slug>` or `pkg:wordpress/theme/<slug>`. With a version (`pkg:pypi/apache-airflow@2.7.0`) ' +
    'only the records that say it is affected.',
  examples: ['pkg:pypi/apache-airflow@2.7.0'],
});

/** `cpe`, in the list's query and in a batch check. */
export const CpeParameter = Type.String({
  minLength: 8,
  maxLength: MAX_CPE_LENGTH,
  pattern: '^cpe:2\\.3:[^\\s]+$',
  description:
    "A CPE 2.3 formatted string matched against the records' CPE names: `*` matches any value and `-` only `-` " +
    '(and `*`), other values by equal text, a vendor or a product required. With a version attribute only the records ' +
    'that say it is affected: a CPE name with that very version, or the ranges of the product it names.',
  examples: ['cpe:2.3:a:openssl:openssl:3.0.7:*:*:*:*:*:*:*'],
});

/** What a filter reads, which says in the list's description how it filters. */
export const FILTER_READINGS = {
  record: 'filter by exact match',
  details: 'by what the details say',
  affected: 'by the affected products the records list (a version as the CVE JSON 5 rules place it in their ranges)',
} as const;

/** A field of the page's filter form: a text box, or a choice among the values of the filter's schema. */
export type FormField = TextField | ChoiceField;

interface FieldBase {
  readonly label: string;
  /** A line under the field, said to a person. */
  readonly hint?: string;
  /** How the page's heading says the filter, `{}` standing for the value (or the choice's words); `<name> {}` when absent. */
  readonly said?: string;
}

export interface TextField extends FieldBase {
  readonly kind: 'text';
  /** The operation whose answer suggests values as the person types (the project names). */
  readonly suggestions?: 'projects';
}

export interface ChoiceField extends FieldBase {
  readonly kind: 'choice';
  /** The first choice, which leaves the filter out. */
  readonly any: string;
  /** Each value of the schema (`true` and `false` for a boolean) in words. */
  readonly choices: Readonly<Record<string, string>>;
}

export interface ListFilter<S extends TSchema = TSchema> {
  /** The query parameter: its schema and description, as REST, MCP tools and the SDK take it. */
  readonly schema: S;
  /** What it reads, for the list's description; a filter that only qualifies another (`include_unknown`) reads nothing. */
  readonly reads?: keyof typeof FILTER_READINGS;
  /**
   * How a list cursor is bound to it: the cursor carries every filter of the groups up to the highest group
   * given, so a cursor issued before a group existed stays valid. A new filter takes a new group, after the others.
   */
  readonly cursorGroup: number;
  /** Whether the change stream takes it: only filters a change can be checked against on the record table. */
  readonly stream: boolean;
  /** The filter in a few words, for agents (/llms.txt, the MCP list tool). */
  readonly brief: string;
  /** Its field in the page's filter form, when the page offers it. */
  readonly form?: FormField;
}

const filter = <S extends TSchema>(declaration: ListFilter<S>): ListFilter<S> => declaration;

/** The list's filters, in the order of the list's parameters. */
export const LIST_FILTERS = {
  project: filter({
    schema: Type.String({ minLength: 1, maxLength: MAX_PROJECT_LENGTH, description: 'Exact, case-sensitive project name.' }),
    reads: 'record',
    cursorGroup: 0,
    stream: true,
    brief: '`project` (an exact name from the projects)',
    form: { kind: 'text', label: 'Project', hint: 'The exact name, as in the table.', suggestions: 'projects' },
  }),
  status: filter({
    schema: RecordStatus,
    reads: 'record',
    cursorGroup: 0,
    stream: true,
    brief: '`status`',
    form: {
      kind: 'choice',
      label: 'Status',
      any: 'Any status',
      choices: { public: 'Public', 'assigned-no-public-record': 'Assigned, not yet public' },
    },
  }),
  severity: filter({
    schema: Type.Enum([...SEVERITIES], {
      description:
        "Only records whose highest CVSS severity (the details' `severity`) is this one; records without a CVSS score have none.",
    }),
    reads: 'details',
    cursorGroup: 1,
    stream: true,
    brief: '`severity` (highest CVSS: critical, high, medium, low, none)',
    form: {
      kind: 'choice',
      label: 'Severity',
      hint: 'The highest CVSS rating. “None” is a score of 0.0.',
      any: 'Any severity',
      choices: { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low', none: 'None' },
    },
  }),
  kev: filter({
    schema: Type.Boolean({
      description: "`true`: only records in CISA's Known Exploited Vulnerabilities catalog; `false`: only records not in it.",
    }),
    reads: 'details',
    cursorGroup: 1,
    stream: true,
    brief: '`kev` (true/false: in CISA KEV, known exploited)',
    form: {
      kind: 'choice',
      label: 'Known exploited (CISA KEV)',
      said: '{}',
      any: 'Either',
      choices: { true: 'Known exploited', false: 'Not known exploited' },
    },
  }),
  cwe: filter({
    schema: Type.String({
      pattern: '^[Cc][Ww][Ee]-[0-9]{1,7}$',
      maxLength: 11,
      description: 'Only records naming this weakness among their problem types, e.g. `CWE-79` (any case).',
    }),
    reads: 'details',
    cursorGroup: 1,
    stream: true,
    brief: '`cwe` (`CWE-79`)',
  }),
  published_since: filter({
    schema: Type.String({ format: 'date', description: 'Only records published on this day (UTC) or later, e.g. `2024-01-01`.' }),
    reads: 'details',
    cursorGroup: 1,
    stream: true,
    brief: '`published_since` (YYYY-MM-DD)',
  }),
  published_before: filter({
    schema: Type.String({
      format: 'date',
      description: 'Only records published before this day (UTC). Either date filter leaves out records with no publication date.',
    }),
    reads: 'details',
    cursorGroup: 1,
    stream: true,
    brief: '`published_before` (YYYY-MM-DD)',
  }),
  version: filter({
    schema: Type.String({
      minLength: 1,
      maxLength: MAX_VERSION_PARAMETER_LENGTH,
      pattern: VERSION_PATTERN,
      description:
        'With `project` (or a `purl` or `cpe` without a version): only records whose affected entries for it say this version is affected, by the CVE JSON 5 ' +
        'rules for their `versionType` (semver, custom dotted numbers, rpm, maven, python; git by exact commit), e.g. `3.0.7`.',
      examples: ['3.0.7'],
    }),
    reads: 'affected',
    cursorGroup: 2,
    // A change would have to be checked against the version index: a stream asked for one is a 400, never one that ignores it.
    stream: false,
    brief: '`version` (with `project`, `purl` or `cpe`: the records saying that version is affected)',
    form: {
      kind: 'text',
      label: 'Version',
      said: 'version {} affected',
      hint: 'A version of the project, e.g. 3.0.7: the records saying it is affected, and why.',
    },
  }),
  include_unknown: filter({
    schema: Type.Boolean({
      description:
        'With `version`: `true` also lists records that cannot tell whether the version is affected (a range of an unreadable type, a git commit they do not name).',
    }),
    cursorGroup: 2,
    stream: false,
    brief: '`include_unknown` (true: also the records that cannot tell)',
  }),
  purl: filter({
    schema: PurlParameter,
    reads: 'affected',
    cursorGroup: 3,
    // As for a version: a change is checked on the record table only, so a stream refuses it (400).
    stream: false,
    brief: '`purl` (a package URL, `pkg:pypi/apache-airflow@2.7.0`)',
  }),
  cpe: filter({
    schema: CpeParameter,
    reads: 'affected',
    cursorGroup: 3,
    // As for a version: a change is checked on the record table only, so a stream refuses it (400).
    stream: false,
    brief: '`cpe` (a CPE 2.3 name)',
  }),
} as const;

export type ListFilterTable = Readonly<Record<string, ListFilter>>;
export type ListFilterName = keyof typeof LIST_FILTERS;

/** A table's filters as the optional properties of a query object. */
export type FilterProperties<T extends ListFilterTable> = { [K in keyof T]: TOptional<T[K]['schema']> };

export function filterProperties<T extends ListFilterTable>(table: T): FilterProperties<T> {
  return Object.fromEntries(Object.entries(table).map(([name, { schema }]) => [name, Type.Optional(schema)])) as FilterProperties<T>;
}

/** The filters' values of a list request: what a list selects on and a cursor is bound to. */
export type ListFilterValues = { readonly [K in ListFilterName]?: Static<(typeof LIST_FILTERS)[K]['schema']> | undefined };

/** The names of a table's filters that `pick` keeps, in the table's order. */
export function filterNames<T extends ListFilterTable>(table: T, pick: (filter: ListFilter) => boolean = () => true): (keyof T & string)[] {
  return Object.keys(table).filter((name) => pick(table[name]!));
}

/** `a`, `a and b`, `a, b and c`. */
export function wordList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The filters in a few words each, for agents: `project` (…), `status`, …. */
export function filterBriefs(table: ListFilterTable): string {
  return wordList(Object.values(table).map((filter) => filter.brief));
}

/** The sentence of the list's description that says how each filter filters, grouped by what they read. */
export function filterReadings(table: ListFilterTable): string {
  return Object.entries(FILTER_READINGS)
    .map(([reading, words]) => {
      const names = filterNames(table, (filter) => filter.reads === reading).map((name) => `\`${name}\``);
      return names.length > 0 ? `${wordList(names)} ${words}` : undefined;
    })
    .filter((part) => part !== undefined)
    .join('; ');
}
