// The records each exact filter selects, as position lists in listing order, built once per snapshot:
// a page of a filtered list is a bisection into the smallest list that applies and a short scan of it
// checking the other filters on the table's columns, so page 1000 costs what page 1 does.
import { type ListFilterName, type ListFilterValues, type RecordStatus, SEVERITIES, type Severity } from '../contract/index.js';
import type { ListFilters } from './record-entry.js';
import { NO_DATE, namesCwe, type RecordTable, STATUS_CODES } from './record-table.js';

/** The positions to walk for some filters, and the check the others add (none when the list is exact). */
export interface Candidates {
  readonly positions: Int32Array;
  readonly accept: ((position: number) => boolean) | undefined;
}

/** One filter: the list it selects when it has one, and its check of a single record. */
interface Selection {
  readonly positions?: Int32Array | undefined;
  readonly accept: (position: number) => boolean;
}

/**
 * The filters of a request that gives none (the hot `?limit=20` list): one object for every such request,
 * which listFilters returns without building one.
 */
export const NO_FILTERS: ListFilters = Object.freeze({});

/** Whether any filter is given: a look at the names present, not a read of every filter by name. */
export function hasFilters(filters: Readonly<Record<string, unknown>>): boolean {
  for (const name in filters) if (filters[name] !== undefined && Object.hasOwn(FILTER_READERS, name)) return true;
  return false;
}

/** How many filter combinations keep their total: date filters make the combinations endless. */
const TOTALS_KEPT = 1024;
const DAY_MS = 86_400_000;

/** Groups of positions as compressed rows: group g holds positions[starts[g], starts[g + 1]). */
interface Groups {
  readonly starts: Uint32Array;
  readonly positions: Int32Array;
}

/** The positions 0 to the longest size asked for so far, shared by every snapshot (never written after it is filled). */
let identities = new Int32Array(0);

/**
 * The positions 0 to size - 1, as a view of the shared list: every snapshot a change makes would otherwise
 * allocate its own copy of the same numbers. The list grows by an eighth past the size asked
 * for, so that a catalog growing by a few hundred records a change makes it again once in many changes.
 */
function identity(size: number): Int32Array {
  if (size > identities.length) {
    identities = new Int32Array(size + (size >>> 3));
    for (let position = 0; position < identities.length; position++) identities[position] = position;
  }
  return identities.subarray(0, size);
}

/**
 * Positions grouped by a column of one key per record (a counting sort: two passes over a typed array,
 * no call per record); keys at or past `groupCount` (a severity column's "none") belong to no group.
 */
function groupedBy(column: Uint8Array | Uint32Array, groupCount: number): Groups {
  const starts = new Uint32Array(groupCount + 1);
  for (let position = 0; position < column.length; position++) {
    const key = column[position]!;
    if (key < groupCount) starts[key + 1]!++;
  }
  for (let g = 0; g < groupCount; g++) starts[g + 1]! += starts[g]!;
  const fill = starts.slice(0, groupCount);
  const positions = new Int32Array(starts[groupCount]!);
  for (let position = 0; position < column.length; position++) {
    const key = column[position]!;
    if (key < groupCount) positions[fill[key]!++] = position;
  }
  return { starts, positions };
}

/** Positions grouped by the CWE ids each record names (any number of them), as groupedBy does. */
function groupedByCwe({ size, cweNames, cweStarts, cweOf }: RecordTable): Groups {
  const groupCount = cweNames.length;
  const starts = new Uint32Array(groupCount + 1);
  for (let i = 0; i < cweStarts[size]!; i++) starts[cweOf[i]! + 1]!++;
  for (let g = 0; g < groupCount; g++) starts[g + 1]! += starts[g]!;
  const fill = starts.slice(0, groupCount);
  const positions = new Int32Array(starts[groupCount]!);
  for (let position = 0; position < size; position++)
    for (let i = cweStarts[position]!; i < cweStarts[position + 1]!; i++) positions[fill[cweOf[i]!]!++] = position;
  return { starts, positions };
}

/** Each group's positions as a list of its own (a view of the groups' one array). */
function lists(groups: Groups, count: number): Int32Array[] {
  return Array.from({ length: count }, (_, g) => groups.positions.subarray(groups.starts[g]!, groups.starts[g + 1]!));
}

export class FilterIndex {
  readonly #all: Int32Array;
  readonly #byProject: Groups;
  readonly #byCwe: Groups;
  readonly #byStatus: readonly Int32Array[];
  readonly #bySeverity: readonly Int32Array[];
  readonly #kev: Int32Array;
  readonly #projectIndex: ReadonlyMap<string, number>;
  readonly #cweIndex: ReadonlyMap<string, number>;
  /** Totals already counted, by filters: counting a large filtered list is a scan worth doing once. */
  readonly #totals = new Map<string, number>();

  constructor(readonly table: RecordTable) {
    // Built for every snapshot, a change's too, before it is served: typed loops only (70 ms at 340,000
    // records with a call per record, a few milliseconds without).
    const { size, projectOf, status, severity, kev } = table;
    this.#all = identity(size);
    this.#byProject = groupedBy(projectOf, table.projectNames.length);
    this.#byCwe = groupedByCwe(table);
    this.#byStatus = lists(groupedBy(status, STATUS_CODES.length), STATUS_CODES.length);
    this.#bySeverity = lists(groupedBy(severity, SEVERITIES.length), SEVERITIES.length);
    this.#kev = lists(groupedBy(kev, 2), 2)[1]!;
    this.#projectIndex = new Map(table.projectNames.map((name, index) => [name, index]));
    this.#cweIndex = new Map(table.cweNames.map((name, index) => [name, index]));
  }

  /** Positions of a project's records (empty for an unknown project). */
  project(name: string): Int32Array {
    return group(this.#byProject, this.#projectIndex.get(name));
  }

  /** The code of a project in the table's projectNames, when it has records. */
  projectCode(name: string): number | undefined {
    return this.#projectIndex.get(name);
  }

  status(status: RecordStatus): Int32Array {
    return this.#byStatus[STATUS_CODES.indexOf(status)]!;
  }

  get all(): Int32Array {
    return this.#all;
  }

  /** Positions of the records whose highest CVSS severity is this one. */
  severity(severity: Severity): Int32Array {
    return this.#bySeverity[SEVERITIES.indexOf(severity)]!;
  }

  /** Positions of the records in CISA's KEV catalog. */
  get knownExploited(): Int32Array {
    return this.#kev;
  }

  /** Positions of the records naming a CWE id (canonical spelling, `CWE-79`; empty for one no record names). */
  cwe(name: string): Int32Array {
    return group(this.#byCwe, this.#cweIndex.get(name));
  }

  /** The code of a CWE id in the table's cweNames, when some record names it. */
  cweCode(name: string): number | undefined {
    return this.#cweIndex.get(name);
  }

  /** The smallest list that meets one filter, with a check for the others. */
  candidates(filters: ListFilters): Candidates {
    const selections = this.#selections(filters);
    let best: Selection | undefined;
    for (const selection of selections) {
      if (selection.positions && (!best?.positions || selection.positions.length < best.positions.length)) best = selection;
    }
    const checks = selections.filter((selection) => selection !== best).map((selection) => selection.accept);
    const accept = checks.length <= 1 ? checks[0] : (position: number) => checks.every((check) => check(position));
    return { positions: best?.positions ?? this.#all, accept };
  }

  /** The check of one record against every filter; undefined when there is no filter. */
  matcher(filters: ListFilters): ((position: number) => boolean) | undefined {
    const checks = this.#selections(filters).map((selection) => selection.accept);
    return checks.length <= 1 ? checks[0] : (position) => checks.every((check) => check(position));
  }

  /** How many records meet the filters. */
  total(filters: ListFilters, candidates: Candidates): number {
    if (!candidates.accept) return candidates.positions.length;
    let total = this.knownTotal(filters);
    if (total === undefined) {
      total = 0;
      for (const position of candidates.positions) if (candidates.accept(position)) total++;
      this.rememberTotal(filters, total);
    }
    return total;
  }

  /** The total of filters already counted, if it was. */
  knownTotal(filters: ListFilters): number | undefined {
    return this.#totals.get(JSON.stringify(filters));
  }

  /** A total counted elsewhere (in steps, for the filters whose check of a record is costly). */
  rememberTotal(filters: ListFilters, total: number): void {
    if (this.#totals.size >= TOTALS_KEPT) this.#totals.clear();
    this.#totals.set(JSON.stringify(filters), total);
  }

  #selections(filters: ListFilters): Selection[] {
    // The names given, not all eleven by name (keyed reads of absent properties, at every list request).
    // listFilters adds them in the table's order; the order only decides between two lists of one length.
    const selections: Selection[] = [];
    for (const name in filters) {
      if (!Object.hasOwn(FILTER_READERS, name)) continue;
      const selection = selectionOf(this, name as ListFilterName, filters[name as ListFilterName]);
      if (selection !== undefined) selections.push(selection);
    }
    return selections;
  }
}

type FilterValue<K extends ListFilterName> = NonNullable<ListFilterValues[K]>;

/** How the core reads one filter of the contract's table. */
interface FilterReader<V> {
  /** The value in the spelling the index keeps (and a cursor is bound to), when the parameter allows others. */
  readonly canonical?: (value: V) => V;
  /** Its list and its check of one record; absent for the filters the version subjects read (version-subjects.ts). */
  readonly select?: (index: FilterIndex, value: V) => Selection;
}

/** The publication day a date filter names, as the table's `published` column counts days. */
const dayOf = (date: string): number => Date.parse(date) / DAY_MS;

/**
 * Each filter of the contract's table (contract/list-filters.ts), read on the record table's columns: a new
 * filter is a type error here until it says which column it reads.
 */
export const FILTER_READERS: { readonly [K in ListFilterName]: FilterReader<FilterValue<K>> } = {
  project: {
    select: (index, name) => {
      const code = index.projectCode(name);
      return { positions: index.project(name), accept: (position) => index.table.projectOf[position] === code };
    },
  },
  status: {
    select: (index, status) => {
      const code = STATUS_CODES.indexOf(status);
      return { positions: index.status(status), accept: (position) => index.table.status[position] === code };
    },
  },
  severity: {
    select: (index, severity) => {
      const code = SEVERITIES.indexOf(severity);
      return { positions: index.severity(severity), accept: (position) => index.table.severity[position] === code };
    },
  },
  kev: {
    select: (index, known) => {
      const kev = known ? 1 : 0;
      return { positions: known ? index.knownExploited : undefined, accept: (position) => index.table.kev[position] === kev };
    },
  },
  cwe: {
    canonical: (cwe) => cwe.toUpperCase(),
    select: (index, cwe) => {
      const code = index.cweCode(cwe);
      return { positions: index.cwe(cwe), accept: (position) => code !== undefined && namesCwe(index.table, position, code) };
    },
  },
  published_since: {
    select: (index, date) => {
      const since = dayOf(date);
      return publishedOn(index, (day) => day >= since);
    },
  },
  published_before: {
    select: (index, date) => {
      const before = dayOf(date);
      return publishedOn(index, (day) => day < before);
    },
  },
  version: {},
  include_unknown: {},
  purl: {},
  cpe: {},
};

/** Records published on a day `holds` of (a record without a publication date never is). */
function publishedOn(index: FilterIndex, holds: (day: number) => boolean): Selection {
  return {
    accept: (position) => {
      const day = index.table.published[position]!;
      return day !== NO_DATE && holds(day);
    },
  };
}

function selectionOf<K extends ListFilterName>(index: FilterIndex, name: K, value: ListFilterValues[K]): Selection | undefined {
  const reader = FILTER_READERS[name] as FilterReader<FilterValue<K>>;
  return value === undefined ? undefined : reader.select?.(index, value as FilterValue<K>);
}

/** The positions of one group (empty for no group). */
function group({ starts, positions }: Groups, g: number | undefined): Int32Array {
  return g === undefined ? new Int32Array(0) : positions.subarray(starts[g]!, starts[g + 1]!);
}
