// The records each exact filter selects, as position lists in listing order, built once per snapshot:
// a page of a filtered list is a bisection into the smallest list that applies and a short scan of it,
// so page 1000 costs what page 1 does.
import type { RecordStatus } from '../contract/index.js';
import type { ListFilters } from './record-entry.js';
import { type RecordTable, STATUS_CODES } from './record-table.js';

/** The positions to walk for some filters, and the check the others add (none when the list is exact). */
export interface Candidates {
  readonly positions: Int32Array;
  readonly accept: ((position: number) => boolean) | undefined;
}

export class FilterIndex {
  readonly #all: Int32Array;
  readonly #projectStarts: Uint32Array;
  readonly #projectPositions: Int32Array;
  readonly #byStatus: readonly Int32Array[];
  readonly #projectIndex: ReadonlyMap<string, number>;
  /** Totals already counted, by filters: counting a large filtered list is a scan worth doing once. */
  readonly #totals = new Map<string, number>();

  constructor(private readonly table: RecordTable) {
    const { size, projectOf, status } = table;
    this.#all = new Int32Array(size);
    for (let position = 0; position < size; position++) this.#all[position] = position;
    // Compressed rows: the positions of project p are #projectPositions[#projectStarts[p], #projectStarts[p + 1]).
    const starts = new Uint32Array(table.projectNames.length + 1);
    for (let position = 0; position < size; position++) starts[projectOf[position]! + 1]!++;
    for (let p = 0; p < table.projectNames.length; p++) starts[p + 1]! += starts[p]!;
    const fill = starts.slice(0, table.projectNames.length);
    const positions = new Int32Array(size);
    for (let position = 0; position < size; position++) positions[fill[projectOf[position]!]!++] = position;
    this.#projectStarts = starts;
    this.#projectPositions = positions;
    this.#byStatus = STATUS_CODES.map((_, code) => this.#all.filter((position) => status[position] === code));
    this.#projectIndex = new Map(table.projectNames.map((name, index) => [name, index]));
  }

  /** Positions of a project's records (empty for an unknown project). */
  project(name: string): Int32Array {
    const p = this.#projectIndex.get(name);
    return p === undefined ? new Int32Array(0) : this.#projectPositions.subarray(this.#projectStarts[p]!, this.#projectStarts[p + 1]!);
  }

  status(status: RecordStatus): Int32Array {
    return this.#byStatus[STATUS_CODES.indexOf(status)]!;
  }

  get all(): Int32Array {
    return this.#all;
  }

  /** The smallest list that meets one filter, with a check for the others. */
  candidates(filters: ListFilters): Candidates {
    const { project, status } = filters;
    const code = status === undefined ? undefined : STATUS_CODES.indexOf(status);
    if (project !== undefined) {
      const positions = this.project(project);
      return { positions, accept: code === undefined ? undefined : (position) => this.table.status[position] === code };
    }
    if (status !== undefined) return { positions: this.status(status), accept: undefined };
    return { positions: this.#all, accept: undefined };
  }

  /** How many records meet the filters. */
  total(filters: ListFilters, candidates: Candidates): number {
    if (!candidates.accept) return candidates.positions.length;
    const key = JSON.stringify([filters.project ?? null, filters.status ?? null]);
    let total = this.#totals.get(key);
    if (total === undefined) {
      total = 0;
      for (const position of candidates.positions) if (candidates.accept(position)) total++;
      this.#totals.set(key, total);
    }
    return total;
  }
}
