// Each project's version ranges, ordered by version, so that a check of a version reads the records whose
// answer there is asked for instead of checking every record of the project (the kernel's 19,000 at
// 340,000 records). For a version written as plain release numbers (`6.1.5`, `v2.14.1`: digits and dots,
// no leading zeros, what people ask about), a record's answer depends only on where the version falls among
// the record's own bounds, in the order of its versionType. So each record is evaluated once, at the build,
// in every gap and at every bound of its own (range-eval.ts mirrors version-check.ts and record-check.ts
// there), and its stretches where the answer is `affected` or `unknown` are kept as [start, end] pairs of
// ranks among the project's bounds: a query ranks the version by bisection and reads the stretches holding
// it. What the ranks cannot tell (another way of writing versions, a record whose products mix orderings,
// text that may equal a version, `changes`) stays with the record-by-record check (its positions are kept
// as `checked`), and so does every other version asked about.
import type { VersionStatus } from '../../contract/index.js';
import { type CompiledRecord, compileRecord, isRankableVersion, LINE_ORDERS, STATUS_CODES, statusesAlong } from './range-eval.js';
import type { CheckedDetails } from './record-check.js';

/** Statuses by code, as the stretches store them. */
const STATUSES: readonly VersionStatus[] = ['affected', 'unaffected', 'unknown'];

/** Growable column of 32-bit integers: the build appends, done() keeps what was filled. */
class IntColumn {
  #values = new Int32Array(64);
  length = 0;

  push(value: number): void {
    if (this.length === this.#values.length) {
      const grown = new Int32Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.length++] = value;
  }

  at(index: number): number {
    return this.#values[index]!;
  }

  done(): Int32Array {
    return this.#values.slice(0, this.length);
  }
}

/**
 * A bound of a stretch while the project's ranks are not known yet: a bound text's id, and which side of
 * it (`at`: the bound itself; `above`/`below`: just past it). -1 is no bound (below all, or above all).
 */
const AT = 0;
const ABOVE = 1;
const BELOW = 2;

/** One ordering's bounds and stretches of a project, while it is built. */
class LineBuilder {
  readonly texts = new Map<string, number>();
  readonly keys: unknown[] = [];
  readonly starts = new IntColumn();
  readonly ends = new IntColumn();
  readonly positions = new IntColumn();
  readonly statuses = new IntColumn();

  constructor(readonly line: number) {}

  /** The id of a bound text, parsed once. */
  id(text: string, key: unknown): number {
    let id = this.texts.get(text);
    if (id === undefined) {
      id = this.keys.length;
      this.texts.set(text, id);
      this.keys.push(key);
    }
    return id;
  }
}

/** A project's stretches in one ordering, sorted by start: ranks are doubled (2i + 1 is bound i, 2i the gap below it). */
interface Line {
  /** Its ordering, an index of LINE_ORDERS. */
  readonly order: number;
  /** The project's distinct bounds in this ordering, parsed, ascending. */
  readonly keys: readonly unknown[];
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly positions: Int32Array;
  readonly statuses: Uint8Array;
}

interface ProjectRanges {
  readonly lines: readonly Line[];
  /** Records whose answer is the same at every such version: their positions and statuses. */
  readonly constant: Int32Array;
  readonly constantStatuses: Uint8Array;
  /** Records the ranks cannot answer for: checked one by one. */
  readonly checked: Int32Array;
}

/** What a query reads: positions in listing order whose status is asked for, and those to check one by one. */
export interface RangeAnswer {
  readonly found: Int32Array;
  /** The status of each of `found`, by its index there. */
  readonly statuses: readonly VersionStatus[];
  readonly checked: Int32Array;
}

class ProjectBuilder {
  readonly lines = new Map<number, LineBuilder>();
  readonly constant = new IntColumn();
  readonly constantStatuses = new IntColumn();
  readonly checked = new IntColumn();

  line(line: number): LineBuilder {
    let builder = this.lines.get(line);
    if (builder === undefined) {
      builder = new LineBuilder(line);
      this.lines.set(line, builder);
    }
    return builder;
  }
}

export class RangeIndexBuilder {
  readonly #projects = new Map<number, ProjectBuilder>();

  #project(project: number): ProjectBuilder {
    let builder = this.#projects.get(project);
    if (builder === undefined) {
      builder = new ProjectBuilder();
      this.#projects.set(project, builder);
    }
    return builder;
  }

  /** A record of a project, with the name keys its products are selected by (as VersionIndex.checkProject selects them). */
  add(position: number, project: number, details: CheckedDetails | undefined, names: ReadonlySet<string>): void {
    const builder = this.#project(project);
    const compiled: CompiledRecord | undefined = compileRecord(details, names);
    if (compiled === undefined) {
      builder.checked.push(position);
      return;
    }
    if (compiled.line === undefined) {
      const [status] = statusesAlong(compiled);
      builder.constant.push(position);
      builder.constantStatuses.push(STATUS_CODES[status!]);
      return;
    }
    // Stretches of `affected` and `unknown` along the record's own bounds, each kept as its two ends.
    const line = builder.line(compiled.line);
    const ids = compiled.keys.map((key, i) => line.id(compiled.texts[i]!, key));
    const along = statusesAlong(compiled);
    const top = along.length - 1;
    for (let start = 0; start <= top; ) {
      let end = start;
      while (end < top && along[end + 1] === along[start]) end++;
      const status = along[start]!;
      if (status !== 'unaffected') {
        line.starts.push(start === 0 ? -1 : start % 2 === 1 ? ids[(start - 1) / 2]! * 3 + AT : ids[start / 2 - 1]! * 3 + ABOVE);
        line.ends.push(end === top ? -1 : end % 2 === 1 ? ids[(end - 1) / 2]! * 3 + AT : ids[end / 2]! * 3 + BELOW);
        line.positions.push(position);
        line.statuses.push(STATUS_CODES[status]);
      }
      start = end + 1;
    }
  }

  /** The index, a project at a time (each sorting its bounds and stretches: a step each). */
  *done(): Generator<void, RangeIndex, void> {
    const projects = new Map<number, ProjectRanges>();
    for (const [project, builder] of this.#projects) {
      projects.set(project, {
        lines: [...builder.lines.values()].map(finishLine),
        constant: builder.constant.done(),
        constantStatuses: Uint8Array.from(builder.constantStatuses.done()),
        checked: builder.checked.done(),
      });
      yield;
    }
    return new RangeIndex(projects);
  }
}

function finishLine(builder: LineBuilder): Line {
  const order = LINE_ORDERS[builder.line]!;
  const byKey = builder.keys.map((_, id) => id).sort((a, b) => order.compare(builder.keys[a], builder.keys[b]));
  // Ranks of the ids, equal keys (`1.0` and `1` as dotted numbers) sharing one.
  const rank = new Int32Array(byKey.length);
  const keys: unknown[] = [];
  for (const id of byKey) {
    if (keys.length === 0 || order.compare(keys.at(-1), builder.keys[id]) !== 0) keys.push(builder.keys[id]);
    rank[id] = keys.length - 1;
  }
  const top = 2 * keys.length;
  const startOf = (bound: number) => (bound < 0 ? 0 : bound % 3 === AT ? 2 * rank[(bound / 3) | 0]! + 1 : 2 * rank[(bound / 3) | 0]! + 2);
  const endOf = (bound: number) => (bound < 0 ? top : bound % 3 === AT ? 2 * rank[(bound / 3) | 0]! + 1 : 2 * rank[(bound / 3) | 0]!);
  const count = builder.positions.length;
  const starts = new Int32Array(count);
  const ends = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    starts[i] = startOf(builder.starts.at(i));
    ends[i] = endOf(builder.ends.at(i));
  }
  const sorted = Int32Array.from({ length: count }, (_, i) => i).sort((a, b) => starts[a]! - starts[b]!);
  return {
    order: builder.line,
    keys,
    starts: sorted.map((i) => starts[i]!),
    ends: sorted.map((i) => ends[i]!),
    positions: sorted.map((i) => builder.positions.at(i)),
    statuses: Uint8Array.from(sorted, (i) => builder.statuses.at(i)),
  };
}

export class RangeIndex {
  constructor(private readonly projects: ReadonlyMap<number, ProjectRanges>) {}

  /**
   * The records of a project whose status at the version is one asked for, found by rank, and the records
   * to check one by one; undefined when the version is not one the ranks answer for (then every record of
   * the project is checked, as before).
   */
  find(project: number, version: string, asked: ReadonlySet<VersionStatus>): RangeAnswer | undefined {
    if (!isRankableVersion(version)) return undefined;
    const ranges = this.projects.get(project);
    if (ranges === undefined) return { found: new Int32Array(0), statuses: [], checked: new Int32Array(0) };
    const hits: number[] = [];
    const codes: number[] = [];
    for (const line of ranges.lines) {
      const order = LINE_ORDERS[line.order]!;
      const key = order.parse(version);
      if (key === undefined) return undefined;
      const at = rankOf(line.keys, key, order.compare);
      for (let i = 0; i < line.starts.length && line.starts[i]! <= at; i++) {
        if (line.ends[i]! >= at && asked.has(STATUSES[line.statuses[i]!]!)) {
          hits.push(line.positions[i]!);
          codes.push(line.statuses[i]!);
        }
      }
    }
    for (let i = 0; i < ranges.constant.length; i++) {
      if (asked.has(STATUSES[ranges.constantStatuses[i]!]!)) {
        hits.push(ranges.constant[i]!);
        codes.push(ranges.constantStatuses[i]!);
      }
    }
    // A record answers once: its stretches are disjoint, and it is in one line or among the constants.
    const order = Int32Array.from(hits, (_, i) => i).sort((a, b) => hits[a]! - hits[b]!);
    return {
      found: order.map((i) => hits[i]!),
      statuses: Array.from(order, (i) => STATUSES[codes[i]!]!),
      checked: ranges.checked,
    };
  }
}

/** The doubled rank of a key among ascending keys: 2i + 1 when equal to key i, 2i when just below it. */
function rankOf(keys: readonly unknown[], key: unknown, compare: (a: unknown, b: unknown) => number): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const order = compare(keys[middle], key);
    if (order === 0) return 2 * middle + 1;
    if (order < 0) low = middle + 1;
    else high = middle;
  }
  return 2 * low;
}
