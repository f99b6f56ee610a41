// Each project's version ranges, ordered by version, so that a check of a version reads the records whose
// answer there is asked for instead of checking every record of the project (the kernel's 19,000 at
// 340,000 records). For a version written as plain release numbers (`6.1.5`, `v2.14.1`: digits and dots,
// no leading zeros, what people ask about), a record's answer depends only on where the version falls among
// the record's own bounds, in the order of its versionType. So each record is evaluated once, at the build,
// in every gap and at every bound of its own (range-eval.ts mirrors version-check.ts and record-check.ts
// there), and its stretches where the answer is `affected` or `unknown` are kept as [start, end] pairs of
// ranks among the bounds of its ordering, in flat typed columns grouped by project and ordering, each group
// cut by start into blocks of BLOCK stretches and each block ordered by end, highest first: a query ranks the
// version by bisection and reads, in each block starting at or below it, only the stretches ending at or
// above it (a block wholly below it read to its first stretch ending below). What the ranks cannot tell (another way of writing versions, a record whose products mix orderings,
// text that may equal a version, `changes`) stays with the record-by-record check (its positions are kept
// as `checked`), and so does every other version asked about.
import type { VersionStatus } from '../../contract/index.js';
import {
  type CompiledRecord,
  commitPrefix,
  compileForCommits,
  compileRecord,
  isCommitVersion,
  isRankableVersion,
  LINE_ORDERS,
  STATUS_CODES,
  statusesAlong,
} from './range-eval.js';
import type { CheckedDetails } from './record-check.js';

/** Statuses by code, as the stretches store them. */
const STATUSES: readonly VersionStatus[] = ['affected', 'unaffected', 'unknown'];
const LINES = LINE_ORDERS.length;
/** Stretches placed between two yields of the build (a sort of a quarter as many): a few milliseconds. */
const STRETCHES_PER_STEP = 100_000;
/**
 * Stretches in a block of a group: a query reads a block's bounds, then its stretches containing the version
 * and one more, and every stretch of the one block it falls in. The kernel's 66,000 stretches at 340,000
 * records (a 6.x version starts after nearly all of them, and nearly all of them scanned) make some 260 blocks.
 */
const BLOCK = 256;

/** Growable column of 32-bit integers: the build appends, done() keeps what was filled. */
class IntColumn {
  #values = new Int32Array(1024);
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
}

/**
 * A bound of a stretch while the ranks are not known yet: a bound text's id in its line times 3, plus which
 * side of it (`at`: the bound itself; `above`/`below`: just past it). -1 is no bound (below all, or above all).
 */
const AT = 0;
const ABOVE = 1;
const BELOW = 2;

/** Records by project, as compressed rows: project p holds positions[starts[p], starts[p + 1]), in listing order. */
interface ByProject {
  readonly starts: Int32Array;
  readonly positions: Int32Array;
  readonly statuses: Uint8Array;
}

/** What a query reads: positions in listing order whose status is asked for, and those to check one by one. */
export interface RangeAnswer {
  readonly found: Int32Array;
  /** The status of each of `found`, by its index there. */
  readonly statuses: readonly VersionStatus[];
  readonly checked: Int32Array;
  /** `found` and `checked` as one ascending list: what a list page and a batch walk (made once per answer, not per page). */
  readonly positions: Int32Array;
}

/**
 * The build: every record's stretches appended to flat columns (no structure per project, of which there
 * are thousands), the bound texts of each ordering interned once for all projects.
 */
export class RangeIndexBuilder {
  readonly #texts = LINE_ORDERS.map(() => new Map<string, number>());
  readonly #keys: unknown[][] = LINE_ORDERS.map(() => []);
  readonly #stretches = {
    group: new IntColumn(),
    start: new IntColumn(),
    end: new IntColumn(),
    position: new IntColumn(),
    status: new IntColumn(),
  };
  readonly #constant = { project: new IntColumn(), position: new IntColumn(), status: new IntColumn() };
  readonly #checked = { project: new IntColumn(), position: new IntColumn(), status: new IntColumn() };
  /** At commit ids: the records' answer where it is one asked for, those checked one by one, and the commits they name. */
  readonly #atCommits = { project: new IntColumn(), position: new IntColumn(), status: new IntColumn() };
  readonly #checkedAtCommits = { project: new IntColumn(), position: new IntColumn(), status: new IntColumn() };
  readonly #commits = { project: new IntColumn(), position: new IntColumn(), status: new IntColumn() };
  #projects = 0;

  /** A record of a project, with the name keys its products are selected by (as VersionIndex.checkProject selects them). */
  add(position: number, project: number, details: CheckedDetails | undefined, names: ReadonlySet<string>): void {
    this.#projects = Math.max(this.#projects, project + 1);
    this.#addAtCommits(position, project, details, names);
    const compiled: CompiledRecord | undefined = compileRecord(details, names);
    if (compiled === undefined) {
      push(this.#checked, project, position, 0);
      return;
    }
    const along = statusesAlong(compiled);
    if (compiled.line === undefined) {
      push(this.#constant, project, position, STATUS_CODES[along[0]!]);
      return;
    }
    // Stretches of `affected` and `unknown` along the record's own bounds, each kept as its two ends.
    const { line } = compiled;
    const ids = compiled.keys.map((key, i) => this.#id(line, compiled.texts[i]!, key));
    const top = along.length - 1;
    const stretches = this.#stretches;
    for (let start = 0; start <= top; ) {
      let end = start;
      while (end < top && along[end + 1] === along[start]) end++;
      const status = along[start]!;
      if (status !== 'unaffected') {
        stretches.group.push(project * LINES + line);
        stretches.start.push(start === 0 ? -1 : start % 2 === 1 ? ids[(start - 1) / 2]! * 3 + AT : ids[start / 2 - 1]! * 3 + ABOVE);
        stretches.end.push(end === top ? -1 : end % 2 === 1 ? ids[(end - 1) / 2]! * 3 + AT : ids[end / 2]! * 3 + BELOW);
        stretches.position.push(position);
        stretches.status.push(STATUS_CODES[status]);
      }
      start = end + 1;
    }
  }

  #addAtCommits(position: number, project: number, details: CheckedDetails | undefined, names: ReadonlySet<string>): void {
    const commits: string[] = [];
    const compiled = compileForCommits(details, names, commits);
    for (const prefix of new Set(commits.map(commitPrefix))) push(this.#commits, project, position, prefix);
    if (compiled === undefined) push(this.#checkedAtCommits, project, position, 0);
    else {
      const [status] = statusesAlong(compiled);
      if (status !== 'unaffected') push(this.#atCommits, project, position, STATUS_CODES[status!]);
    }
  }

  /** The id of a bound text in its line, parsed once. */
  #id(line: number, text: string, key: unknown): number {
    const texts = this.#texts[line]!;
    let id = texts.get(text);
    if (id === undefined) {
      id = this.#keys[line]!.length;
      texts.set(text, id);
      this.#keys[line]!.push(key);
    }
    return id;
  }

  /**
   * The index: each line's bounds sorted, then the stretches grouped by project and line, cut by start into
   * blocks of `block` (a test makes them small) and each block sorted by end, in steps.
   */
  *done(block = BLOCK): Generator<void, RangeIndex, void> {
    const keys: unknown[][] = [];
    const ranks: Int32Array[] = [];
    for (const [line, order] of LINE_ORDERS.entries()) {
      const parsed = this.#keys[line]!;
      const byKey = yield* sortInSteps(Int32Array.from(parsed.keys()), (a, b) => order.compare(parsed[a], parsed[b]));
      // Ranks of the ids, equal keys (`1.0` and `1` as dotted numbers) sharing one.
      const distinct: unknown[] = [];
      const rank = new Int32Array(parsed.length);
      for (const id of byKey) {
        if (distinct.length === 0 || order.compare(distinct.at(-1), parsed[id]) !== 0) distinct.push(parsed[id]);
        rank[id] = distinct.length - 1;
      }
      keys.push(distinct);
      ranks.push(rank);
      yield;
    }
    const { group, start, end, position, status } = this.#stretches;
    const count = group.length;
    const groups = this.#projects * LINES;
    const offsets = new Int32Array(groups + 1);
    for (let i = 0; i < count; i++) offsets[group.at(i) + 1]!++;
    for (let g = 0; g < groups; g++) offsets[g + 1]! += offsets[g]!;
    // Each stretch to its group's place, its ends to doubled ranks among its line's bounds.
    const starts = new Int32Array(count);
    const ends = new Int32Array(count);
    const positions = new Int32Array(count);
    const statuses = new Uint8Array(count);
    const fill = offsets.slice(0, groups);
    for (let i = 0; i < count; i++) {
      const g = group.at(i);
      const line = g % LINES;
      const at = fill[g]!++;
      const rank = ranks[line]!;
      const from = start.at(i);
      const to = end.at(i);
      starts[at] = from < 0 ? 0 : 2 * rank[(from / 3) | 0]! + (from % 3 === AT ? 1 : 2);
      ends[at] = to < 0 ? 2 * keys[line]!.length : 2 * rank[(to / 3) | 0]! + (to % 3 === AT ? 1 : 0);
      positions[at] = position.at(i);
      statuses[at] = status.at(i);
      if (i % STRETCHES_PER_STEP === STRETCHES_PER_STEP - 1) yield;
    }
    yield;
    // Within a group, by start, cut into blocks, each block by end from the highest, with its lowest and highest start.
    const blockOffsets = new Int32Array(groups + 1);
    for (let g = 0; g < groups; g++) blockOffsets[g + 1] = blockOffsets[g]! + Math.ceil((offsets[g + 1]! - offsets[g]!) / block);
    const lowest = new Int32Array(blockOffsets[groups]!);
    const highest = new Int32Array(blockOffsets[groups]!);
    let sorted = 0;
    for (let g = 0; g < groups; g++) {
      const from = offsets[g]!;
      const to = offsets[g + 1]!;
      if (to === from) continue;
      const order = Int32Array.from({ length: to - from }, (_, i) => from + i).sort((a, b) => starts[a]! - starts[b]!);
      for (let first = 0, b = blockOffsets[g]!; first < order.length; first += block, b++) {
        const cut = order.subarray(first, Math.min(first + block, order.length));
        lowest[b] = starts[cut[0]!]!;
        highest[b] = starts[cut.at(-1)!]!;
        cut.sort((x, y) => ends[y]! - ends[x]!);
      }
      const copy = (column: Int32Array | Uint8Array) => {
        const sorted = Array.from(order, (i) => column[i]!);
        column.set(sorted, from);
      };
      for (const column of [starts, ends, positions, statuses]) copy(column);
      sorted += to - from;
      if (sorted >= STRETCHES_PER_STEP / 4) {
        sorted = 0;
        yield;
      }
    }
    // The commits named, by their first seven characters (the status column holds them), then project and position.
    const named = this.#commits;
    const byCommit = yield* sortInSteps(
      Int32Array.from({ length: named.project.length }, (_, i) => i),
      (a, b) =>
        named.status.at(a) - named.status.at(b) || named.project.at(a) - named.project.at(b) || named.position.at(a) - named.position.at(b),
    );
    const commits: Commits = {
      prefixes: byCommit.map((i) => named.status.at(i)),
      projects: byCommit.map((i) => named.project.at(i)),
      positions: byCommit.map((i) => named.position.at(i)),
    };
    return new RangeIndex(
      keys,
      { offsets, starts, ends, positions, statuses, block, blocks: { offsets: blockOffsets, lowest, highest } },
      byProject(this.#constant, this.#projects),
      byProject(this.#checked, this.#projects),
      { answers: byProject(this.#atCommits, this.#projects), checked: byProject(this.#checkedAtCommits, this.#projects), commits },
    );
  }
}

function push(
  columns: { project: IntColumn; position: IntColumn; status: IntColumn },
  project: number,
  position: number,
  status: number,
): void {
  columns.project.push(project);
  columns.position.push(position);
  columns.status.push(status);
}

/** Records grouped by project, in the order added (listing order). */
function byProject(columns: { project: IntColumn; position: IntColumn; status: IntColumn }, projects: number): ByProject {
  const count = columns.project.length;
  const starts = new Int32Array(projects + 1);
  for (let i = 0; i < count; i++) starts[columns.project.at(i) + 1]!++;
  for (let p = 0; p < projects; p++) starts[p + 1]! += starts[p]!;
  const fill = starts.slice(0, projects);
  const positions = new Int32Array(count);
  const statuses = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const at = fill[columns.project.at(i)]!++;
    positions[at] = columns.position.at(i);
    statuses[at] = columns.status.at(i);
  }
  return { starts, positions, statuses };
}

/** Ids sorted by a comparison, by merging sorted runs: a step each run and each merge of 50,000 ids. */
function* sortInSteps(ids: Int32Array, compare: (a: number, b: number) => number): Generator<void, Int32Array, void> {
  const RUN = 1024;
  for (let from = 0; from < ids.length; from += RUN) {
    ids.subarray(from, from + RUN).sort(compare);
    yield;
  }
  let source = ids;
  let target: Int32Array = new Int32Array(ids.length);
  let moved = 0;
  for (let width = RUN; width < ids.length; width *= 2) {
    for (let from = 0; from < ids.length; from += 2 * width) {
      const middle = Math.min(from + width, ids.length);
      const to = Math.min(from + 2 * width, ids.length);
      let i = from;
      let j = middle;
      for (let k = from; k < to; k++)
        target[k] = j >= to || (i < middle && compare(source[i]!, source[j]!) <= 0) ? source[i++]! : source[j++]!;
      moved += to - from;
      if (moved >= 50_000) {
        moved = 0;
        yield;
      }
    }
    [source, target] = [target, source];
  }
  return source;
}

/**
 * Stretches grouped by project and line (group p * LINES + line holds [offsets[g], offsets[g + 1])), each group
 * cut by start into blocks of `block` (the last one shorter), each block by end from the highest.
 */
interface Stretches {
  readonly offsets: Int32Array;
  readonly block: number;
  /** Group g's blocks are [offsets[g], offsets[g + 1]) here, each with the lowest and highest start of its stretches. */
  readonly blocks: { readonly offsets: Int32Array; readonly lowest: Int32Array; readonly highest: Int32Array };
  /** Doubled ranks among the line's bounds: 2i + 1 is bound i, 2i the gap below it. */
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly positions: Int32Array;
  readonly statuses: Uint8Array;
}

/** The commits records name: their first seven characters as numbers, ascending, with each record's project and position. */
interface Commits {
  readonly prefixes: Int32Array;
  readonly projects: Int32Array;
  readonly positions: Int32Array;
}

/** What the index reads at a commit id with a letter. */
interface AtCommits {
  /** Each record's answer at a commit it does not name, where it is `affected` or `unknown`. */
  readonly answers: ByProject;
  /** Records whose answer there is left to the check (an entry of another ordering). */
  readonly checked: ByProject;
  readonly commits: Commits;
}

export class RangeIndex {
  constructor(
    /** Each line's distinct bounds, parsed, ascending. */
    private readonly keys: readonly (readonly unknown[])[],
    private readonly stretches: Stretches,
    /** Records whose answer is the same at every such version, with it. */
    private readonly constant: ByProject,
    /** Records the ranks cannot answer for: checked one by one. */
    private readonly checked: ByProject,
    private readonly atCommits: AtCommits,
  ) {}

  /**
   * The records of a project whose status at the version is one asked for, found by rank, and the records
   * to check one by one; undefined when the version is not one the ranks answer for (then every record of
   * the project is checked, as before).
   */
  find(project: number, version: string, asked: ReadonlySet<VersionStatus>): RangeAnswer | undefined {
    if (isCommitVersion(version)) return this.#atCommit(project, version, asked);
    if (!isRankableVersion(version)) return undefined;
    const { offsets, starts, ends, positions, statuses, block, blocks } = this.stretches;
    // Each hit as position * 4 + status code, so one numeric sort puts them in listing order.
    const hits: number[] = [];
    const wanted = STATUSES.map((status) => asked.has(status));
    for (let line = 0; line < LINES; line++) {
      const g = project * LINES + line;
      if (g + 1 >= offsets.length || offsets[g] === offsets[g + 1]) continue;
      const order = LINE_ORDERS[line]!;
      const key = order.parse(version);
      if (key === undefined) return undefined;
      const at = rankOf(this.keys[line]!, key, order.compare);
      const to = offsets[g + 1]!;
      for (let b = blocks.offsets[g]!, first = offsets[g]!; first < to && blocks.lowest[b]! <= at; b++, first += block) {
        const last = Math.min(first + block, to);
        if (blocks.highest[b]! <= at) {
          // Every stretch of the block starts at or below the version: those ending at or above it come first.
          for (let i = first; i < last && ends[i]! >= at; i++) if (wanted[statuses[i]!]) hits.push(positions[i]! * 4 + statuses[i]!);
        } else {
          for (let i = first; i < last; i++) {
            if (starts[i]! <= at && ends[i]! >= at && wanted[statuses[i]!]) hits.push(positions[i]! * 4 + statuses[i]!);
          }
        }
      }
    }
    const constant = this.constant;
    for (let i = constant.starts[project] ?? 0; i < (constant.starts[project + 1] ?? 0); i++) {
      if (wanted[constant.statuses[i]!]) hits.push(constant.positions[i]! * 4 + constant.statuses[i]!);
    }
    // A record answers once: its stretches are disjoint, and it is in one line or among the constants.
    const sorted = Float64Array.from(hits).sort();
    return answer(
      Int32Array.from(sorted, (hit) => Math.floor(hit / 4)),
      Array.from(sorted, (hit) => STATUSES[hit % 4]!),
      ofProject(this.checked, project).positions,
    );
  }

  /** At a commit id with a letter: each record's answer there, but those naming a commit that begins alike are checked. */
  #atCommit(project: number, version: string, asked: ReadonlySet<VersionStatus>): RangeAnswer {
    const { prefixes, projects, positions } = this.atCommits.commits;
    const prefix = commitPrefix(version);
    let low = 0;
    let high = prefixes.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (prefixes[middle]! < prefix || (prefixes[middle] === prefix && projects[middle]! < project)) low = middle + 1;
      else high = middle;
    }
    const naming: number[] = [];
    for (let i = low; i < prefixes.length && prefixes[i] === prefix && projects[i] === project; i++) naming.push(positions[i]!);
    const excluded = new Set(naming);
    const answers = ofProject(this.atCommits.answers, project);
    const found: number[] = [];
    const statuses: VersionStatus[] = [];
    for (const [i, position] of answers.positions.entries()) {
      const status = STATUSES[answers.statuses[i]!]!;
      if (asked.has(status) && !excluded.has(position)) {
        found.push(position);
        statuses.push(status);
      }
    }
    return answer(Int32Array.from(found), statuses, union(ofProject(this.atCommits.checked, project).positions, naming));
  }
}

function answer(found: Int32Array, statuses: readonly VersionStatus[], checked: Int32Array): RangeAnswer {
  return { found, statuses, checked, positions: merged(found, checked) };
}

/** Two ascending lists with no position in both, as one. */
function merged(a: Int32Array, b: Int32Array): Int32Array {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out = new Int32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  for (let k = 0; k < out.length; k++) out[k] = j >= b.length || (i < a.length && a[i]! < b[j]!) ? a[i++]! : b[j++]!;
  return out;
}

/** A project's records in a ByProject, and their statuses. */
function ofProject({ starts, positions, statuses }: ByProject, project: number): { positions: Int32Array; statuses: Uint8Array } {
  const from = starts[project] ?? 0;
  const to = starts[project + 1] ?? from;
  return { positions: positions.subarray(from, to), statuses: statuses.subarray(from, to) };
}

/** Two ascending lists as one, each position once. */
function union(a: Int32Array, b: readonly number[]): Int32Array {
  return Int32Array.from(new Set([...a, ...b])).sort();
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
