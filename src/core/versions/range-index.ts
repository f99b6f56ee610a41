// A project's version ranges, ordered by version, so that a check of a version reads the records whose
// answer there is asked for instead of checking every record of the project (the kernel's 19,000 at
// 340,000 records). For a version written as plain release numbers (`6.1.5`, `v2.14.1`: digits and dots,
// no leading zeros, what people ask about), a record's answer depends only on where the version falls among
// the record's own bounds, in the order of its versionType. So each record is evaluated once, at the build,
// in every gap and at every bound of its own (range-eval.ts mirrors version-check.ts and record-check.ts
// there), and its stretches where the answer is `affected` or `unknown` are kept as [start, end] pairs of
// ranks among the bounds of its ordering, grouped by ordering, each group cut by start into blocks of BLOCK
// stretches and each block ordered by end, highest first: a query ranks the version by bisection and reads,
// in each block starting at or below it, only the stretches ending at or above it (a block wholly below it
// read to its first stretch ending below). What the ranks cannot tell (another way of writing versions, a
// record whose products mix orderings, text that may equal a version, `changes`) stays with the
// record-by-record check (its positions are kept as `checked`), and so does every other version asked about.
//
// Every project asked about holds its ranges (7,294 projects at 340,000 records), so they are packed: all of
// a project's numbers in one Int32Array. Two dozen typed arrays a project, each two objects on the heap and
// most a native allocation, were 4.6 KB of the 6.8 KB a project held; the build gathers the numbers in plain
// arrays (collected young), not in growing typed arrays (native allocations, 80 KB a project, freed late).
import type { VersionStatus } from '../../contract/index.js';
import { partitionPoint } from '../partition-point.js';
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
 * Stretches in a block of a line: a query reads a block's bounds, then its stretches containing the version
 * and one more, and every stretch of the one block it falls in. The kernel's 66,000 stretches at 340,000
 * records (a 6.x version starts after nearly all of them, and nearly all of them scanned) make some 260 blocks.
 */
const BLOCK = 256;

/**
 * A bound of a stretch while the ranks are not known yet: a bound text's id in its line times 3, plus which
 * side of it (`at`: the bound itself; `above`/`below`: just past it). -1 is no bound (below all, or above all).
 */
const AT = 0;
const ABOVE = 1;
const BELOW = 2;

/**
 * The sections of a project's packed numbers, in order; section s is [data[1 + s], data[2 + s]), data[0]
 * is the block size. A record found is written as its position times 4 plus its status code (a "hit"), so
 * one numeric sort puts hits in listing order with their statuses.
 */
/** Line l's stretches, three numbers each: doubled ranks of start and end among the line's bounds (2i + 1 is bound i, 2i the gap below it), and the hit. */
const STRETCHES = 0;
/** Line l's blocks, two numbers each: the lowest and highest start of the block's stretches. */
const BLOCKS = LINES;
/** Hits of the records whose answer is the same at every such version. */
const CONSTANT = 2 * LINES;
/** Positions of the records the ranks cannot answer for: checked one by one. */
const CHECKED = CONSTANT + 1;
/** At a commit id with a letter: hits of the records' answer where it is `affected` or `unknown`. */
const AT_COMMIT = CHECKED + 1;
/** Positions of the records whose answer at a commit id is left to the check (an entry of another ordering). */
const CHECKED_AT_COMMIT = AT_COMMIT + 1;
/** The commits named, two numbers each: the first seven characters as a number and the position, ascending. */
const COMMITS = CHECKED_AT_COMMIT + 1;
const SECTIONS = COMMITS + 1;
const HEADER = SECTIONS + 2;

/** What a query reads: positions in listing order whose status is asked for, and those to check one by one. */
export interface RangeAnswer {
  readonly found: Int32Array;
  /** The status of each of `found`, by its index there. */
  readonly statuses: readonly VersionStatus[];
  readonly checked: Int32Array;
  /** `found` and `checked` as one ascending list: what a list page and a batch walk (made once per answer, not per page). */
  readonly positions: Int32Array;
}

/** The build: a project's records added in listing order, their bound texts interned by line, then done(). */
export class RangeIndexBuilder {
  readonly #texts = LINE_ORDERS.map(() => new Map<string, number>());
  readonly #keys: unknown[][] = LINE_ORDERS.map(() => []);
  /** Four numbers a stretch: its line, its start and end (bound ids with their side), its hit. */
  readonly #stretches: number[] = [];
  readonly #sections: number[][] = Array.from({ length: SECTIONS }, () => []);

  /** A record of the project, with the name keys its products are selected by (as VersionIndex.checkProject selects them). */
  add(position: number, details: CheckedDetails | undefined, names: ReadonlySet<string>): void {
    this.#addAtCommits(position, details, names);
    const compiled: CompiledRecord | undefined = compileRecord(details, names);
    if (compiled === undefined) {
      this.#sections[CHECKED]!.push(position);
      return;
    }
    const along = statusesAlong(compiled);
    if (compiled.line === undefined) {
      this.#sections[CONSTANT]!.push(hit(position, along[0]!));
      return;
    }
    // Stretches of `affected` and `unknown` along the record's own bounds, each kept as its two ends.
    const { line } = compiled;
    const ids = compiled.keys.map((key, i) => this.#id(line, compiled.texts[i]!, key));
    const top = along.length - 1;
    for (let start = 0; start <= top; ) {
      let end = start;
      while (end < top && along[end + 1] === along[start]) end++;
      const status = along[start]!;
      if (status !== 'unaffected') {
        this.#stretches.push(
          line,
          start === 0 ? -1 : start % 2 === 1 ? ids[(start - 1) / 2]! * 3 + AT : ids[start / 2 - 1]! * 3 + ABOVE,
          end === top ? -1 : end % 2 === 1 ? ids[(end - 1) / 2]! * 3 + AT : ids[end / 2]! * 3 + BELOW,
          hit(position, status),
        );
      }
      start = end + 1;
    }
  }

  #addAtCommits(position: number, details: CheckedDetails | undefined, names: ReadonlySet<string>): void {
    const commits: string[] = [];
    const compiled = compileForCommits(details, names, commits);
    for (const prefix of new Set(commits.map(commitPrefix))) this.#sections[COMMITS]!.push(prefix, position);
    if (compiled === undefined) this.#sections[CHECKED_AT_COMMIT]!.push(position);
    else {
      const [status] = statusesAlong(compiled);
      if (status !== 'unaffected') this.#sections[AT_COMMIT]!.push(hit(position, status!));
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
   * The index: each line's bounds sorted, then the stretches grouped by line, cut by start into blocks of
   * `block` (a test makes them small) and each block sorted by end, in steps.
   */
  *done(block = BLOCK): Generator<void, RangeIndex, void> {
    const keys: (readonly unknown[])[] = [];
    const ranks: number[][] = [];
    for (const [line, order] of LINE_ORDERS.entries()) {
      const parsed = this.#keys[line]!;
      const byKey = yield* sortInSteps(Array.from(parsed.keys()), (a, b) => order.compare(parsed[a], parsed[b]));
      // Ranks of the ids, equal keys (`1.0` and `1` as dotted numbers) sharing one.
      const distinct: unknown[] = [];
      const rank: number[] = new Array(parsed.length);
      for (const id of byKey) {
        if (distinct.length === 0 || order.compare(distinct.at(-1), parsed[id]) !== 0) distinct.push(parsed[id]);
        rank[id] = distinct.length - 1;
      }
      keys.push(distinct.length === 0 ? NO_KEYS : distinct);
      ranks.push(rank);
      yield;
    }
    // Each stretch's ends to doubled ranks among its line's bounds, grouped by line.
    const raw = this.#stretches;
    const lines: number[][] = LINE_ORDERS.map(() => []);
    for (let i = 0; i < raw.length; i += 4) {
      const line = raw[i]!;
      const rank = ranks[line]!;
      const from = raw[i + 1]!;
      const to = raw[i + 2]!;
      lines[line]!.push(
        from < 0 ? 0 : 2 * rank[(from / 3) | 0]! + (from % 3 === AT ? 1 : 2),
        to < 0 ? 2 * keys[line]!.length : 2 * rank[(to / 3) | 0]! + (to % 3 === AT ? 1 : 0),
        raw[i + 3]!,
      );
      if (i % (4 * STRETCHES_PER_STEP) === 4 * STRETCHES_PER_STEP - 4) yield;
    }
    yield;
    // Within a line, by start, cut into blocks, each block by end from the highest, with its lowest and highest start.
    const sections = this.#sections;
    for (const [line, stretches] of lines.entries()) {
      const count = stretches.length / 3;
      const order = Array.from({ length: count }, (_, i) => 3 * i).sort((a, b) => stretches[a]! - stretches[b]!);
      const sorted = sections[STRETCHES + line]!;
      const bounds = sections[BLOCKS + line]!;
      for (let first = 0; first < count; first += block) {
        const cut = order.slice(first, Math.min(first + block, count));
        bounds.push(stretches[cut[0]!]!, stretches[cut.at(-1)!]!);
        cut.sort((x, y) => stretches[y + 1]! - stretches[x + 1]!);
        for (const i of cut) sorted.push(stretches[i]!, stretches[i + 1]!, stretches[i + 2]!);
      }
      yield;
    }
    // The commits named, by their first seven characters, then position.
    const named = sections[COMMITS]!;
    const byCommit = yield* sortInSteps(
      Array.from({ length: named.length / 2 }, (_, i) => 2 * i),
      (a, b) => named[a]! - named[b]! || named[a + 1]! - named[b + 1]!,
    );
    sections[COMMITS] = byCommit.flatMap((i) => [named[i]!, named[i + 1]!]);
    // One array for all: the header (the block size and where each section begins), then the sections.
    const data = new Int32Array(HEADER + sections.reduce((sum, section) => sum + section.length, 0));
    data[0] = block;
    let at = HEADER;
    for (const [s, section] of sections.entries()) {
      data[1 + s] = at;
      data.set(section, at);
      at += section.length;
    }
    data[1 + SECTIONS] = at;
    return new RangeIndex(keys, data);
  }
}

const NO_KEYS: readonly unknown[] = Object.freeze([]);

/** A record's position and status as one number (positions below 2 ** 29, so that it fits the Int32Array). */
function hit(position: number, status: VersionStatus): number {
  return position * 4 + STATUS_CODES[status];
}

/** Ids sorted by a comparison, by merging sorted runs: a step each run and each merge of 50,000 ids. */
function* sortInSteps(ids: number[], compare: (a: number, b: number) => number): Generator<void, number[], void> {
  const RUN = 1024;
  if (ids.length <= RUN) return ids.sort(compare);
  let source = ids;
  for (let from = 0; from < ids.length; from += RUN) {
    const run = source.slice(from, from + RUN).sort(compare);
    for (let i = 0; i < run.length; i++) source[from + i] = run[i]!;
    yield;
  }
  let target: number[] = new Array(ids.length);
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

export class RangeIndex {
  constructor(
    /** Each line's distinct bounds, parsed, ascending. */
    private readonly keys: readonly (readonly unknown[])[],
    /** The packed sections (see STRETCHES to COMMITS). */
    private readonly data: Int32Array,
  ) {}

  /** Where section s begins and ends in `data`. */
  #section(s: number): [number, number] {
    return [this.data[1 + s]!, this.data[2 + s]!];
  }

  /**
   * The project's records whose status at the version is one asked for, found by rank, and the records to
   * check one by one; undefined when the version is not one the ranks answer for (then every record of the
   * project is checked, as before).
   */
  find(version: string, asked: ReadonlySet<VersionStatus>): RangeAnswer | undefined {
    if (isCommitVersion(version)) return this.#atCommit(version, asked);
    if (!isRankableVersion(version)) return undefined;
    const data = this.data;
    const step = 3 * data[0]!;
    const hits: number[] = [];
    const wanted = STATUSES.map((status) => asked.has(status));
    for (let line = 0; line < LINES; line++) {
      const [from, to] = this.#section(STRETCHES + line);
      if (from === to) continue;
      const order = LINE_ORDERS[line]!;
      const key = order.parse(version);
      if (key === undefined) return undefined;
      const at = rankOf(this.keys[line]!, key, order.compare);
      for (let b = this.#section(BLOCKS + line)[0], first = from; first < to && data[b]! <= at; b += 2, first += step) {
        const last = Math.min(first + step, to);
        if (data[b + 1]! <= at) {
          // Every stretch of the block starts at or below the version: those ending at or above it come first.
          for (let i = first; i < last && data[i + 1]! >= at; i += 3) if (wanted[data[i + 2]! & 3]) hits.push(data[i + 2]!);
        } else {
          for (let i = first; i < last; i += 3)
            if (data[i]! <= at && data[i + 1]! >= at && wanted[data[i + 2]! & 3]) hits.push(data[i + 2]!);
        }
      }
    }
    const [from, to] = this.#section(CONSTANT);
    for (let i = from; i < to; i++) if (wanted[data[i]! & 3]) hits.push(data[i]!);
    // A record answers once: its stretches are disjoint, and it is in one line or among the constants.
    const sorted = Int32Array.from(hits).sort();
    return answer(
      sorted.map((found) => found >> 2),
      Array.from(sorted, (found) => STATUSES[found & 3]!),
      data.slice(...this.#section(CHECKED)),
    );
  }

  /** At a commit id with a letter: each record's answer there, but those naming a commit that begins alike are checked. */
  #atCommit(version: string, asked: ReadonlySet<VersionStatus>): RangeAnswer {
    const data = this.data;
    const prefix = commitPrefix(version);
    const [first, end] = this.#section(COMMITS);
    const low = partitionPoint(0, (end - first) / 2, (i) => data[first + 2 * i]! < prefix);
    const naming: number[] = [];
    for (let i = first + 2 * low; i < end && data[i] === prefix; i += 2) naming.push(data[i + 1]!);
    const excluded = new Set(naming);
    const found: number[] = [];
    const statuses: VersionStatus[] = [];
    const [from, to] = this.#section(AT_COMMIT);
    for (let i = from; i < to; i++) {
      const status = STATUSES[data[i]! & 3]!;
      const position = data[i]! >> 2;
      if (asked.has(status) && !excluded.has(position)) {
        found.push(position);
        statuses.push(status);
      }
    }
    return answer(Int32Array.from(found), statuses, union(data.subarray(...this.#section(CHECKED_AT_COMMIT)), naming));
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
