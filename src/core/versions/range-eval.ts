// A record's answer along its own bounds, for the range index (range-index.ts). For a version written as
// plain release numbers, every comparison a check makes (version-check.ts) is one of the version with a
// bound of the record in the order of the entry's versionType, and every other test it makes (a token or a
// commit equal to the version, a version in a `6.1.*` series) is known from that place alone or not at all.
// So the record's entries are compiled to the stretches of bounds where they match and where they cannot
// tell, and the record's answer is computed as checkProduct and checkRecord compute it (the same first
// match, defaults, applicability, CNA before ADP), at each bound and in each gap between two. A record
// whose answer the place alone does not decide compiles to undefined and is checked one by one: a
// product mixing orderings, an entry with `changes`, a token or commit that may be such a version itself,
// a `*` series outside semver and dotted numbers.
import type { AffectedProduct, AffectedVersion, VersionStatus } from '../../contract/index.js';
import { dottedOrder } from './dotted-order.js';
import { mavenOrder } from './maven-order.js';
import { namedIn } from './product-names.js';
import { pythonOrder } from './python-order.js';
import type { CheckedDetails } from './record-check.js';
import { rpmOrder } from './rpm-order.js';
import { semverOrder } from './semver-order.js';
import { COMMIT, isNoLowerBound, PATTERN, parsedBound, STAR, TOKEN } from './version-check.js';
import { type AnyVersionOrder, versionOrder } from './version-order.js';

/**
 * The orderings bounds are ranked in. Dotted numbers rank with semver: a version of digits and dots has
 * one key in both, and they compare alike (semver-order.ts keeps such versions as dotted numbers).
 */
export const LINE_ORDERS: readonly AnyVersionOrder[] = [semverOrder, rpmOrder, mavenOrder, pythonOrder];

export const STATUS_CODES: Readonly<Record<VersionStatus, number>> = { affected: 0, unaffected: 1, unknown: 2 };

/** Release numbers without leading zeros, `v` allowed: the versions the ranks answer for. */
const RANKABLE = /^[vV]?(?:0|[1-9]\d*)(?:\.(?:0|[1-9]\d*))*$/;
const PLAIN_SERIES = /^(?:0|[1-9]\d*)(?:\.(?:0|[1-9]\d*))*$/;

/** Whether the range index answers for this version by rank (otherwise the project's records are checked one by one). */
export function isRankableVersion(version: string): boolean {
  return RANKABLE.test(version) && !COMMIT.test(version);
}

/**
 * Whether a version is a git commit id with a letter: no version of digits and dots, nor semver, so only
 * the records naming a commit that begins as it does (its first seven characters) answer anything particular
 * for it; every other record gives the same answer for any such commit (see compileForCommits).
 */
export function isCommitVersion(version: string): boolean {
  return COMMIT.test(version) && /[a-f]/i.test(version);
}

/** The first seven characters of a commit id as a number: the key of the records that name it. */
export function commitPrefix(text: string): number {
  return Number.parseInt(text.slice(0, 7), 16);
}

/** One end of a stretch: a bound text and whether the bound itself is inside; null is no bound. */
interface End {
  readonly text: string;
  readonly closed: boolean;
}
interface Stretch {
  readonly from: End | null;
  readonly to: End | null;
}
const EVERYWHERE: Stretch = Object.freeze({ from: null, to: null });

interface CompiledEntry {
  readonly status: VersionStatus;
  /** Where the entry matches; where it cannot tell. Undefined: nowhere. */
  readonly match: Stretch | undefined;
  readonly undecided: Stretch | undefined;
}

interface CompiledProduct {
  readonly defaultStatus: VersionStatus | null;
  readonly entries: readonly CompiledEntry[];
}

export interface CompiledRecord {
  /** The ordering its bounds rank in (an index of LINE_ORDERS); undefined when its answer is the same everywhere. */
  readonly line: number | undefined;
  /** Its distinct bounds, ascending, parsed in the line's order, and a text of each. */
  readonly keys: readonly unknown[];
  readonly texts: readonly string[];
  /** The place among `keys` of each bound text its entries name. */
  readonly places: ReadonlyMap<string, number>;
  readonly cna: readonly (CompiledProduct | undefined)[];
  readonly adp: readonly (CompiledProduct | undefined)[];
}

class Uncompiled extends Error {}

function lineOf(order: AnyVersionOrder): number {
  return LINE_ORDERS.indexOf(order === dottedOrder ? semverOrder : order);
}

/**
 * The entry at a commit id with a letter, whose commit or text is not among `commits` (collected here: a
 * commit that begins as one of them is checked one by one). A git entry then decides nothing, and a range
 * of semver or dotted numbers cannot place it; another ordering (rpm, Maven and PEP 440 read such ids as
 * versions) is left to the check.
 */
function compileForCommit(entry: AffectedVersion, commits: string[]): CompiledEntry {
  const order = versionOrder(entry.versionType);
  const upper = entry.lessThan ?? entry.lessThanOrEqual;
  const texts = [entry.version, entry.lessThan, entry.lessThanOrEqual, ...entry.changes.map((change) => change.at)];
  for (const text of texts) if (text !== null && COMMIT.test(text)) commits.push(text);
  if (order !== 'git' && lineOf(order) !== 0) throw new Uncompiled();
  const undecided = upper !== null || (order !== 'git' && (!TOKEN.test(entry.version) || PATTERN.test(entry.version)));
  return { status: entry.status, match: undefined, undecided: undecided ? EVERYWHERE : undefined };
}

/** The entry's stretches, with the line its bounds rank in (undefined when it names none). */
function compileEntry(entry: AffectedVersion): { compiled: CompiledEntry; line: number | undefined } {
  const order = versionOrder(entry.versionType);
  const nowhere = (match?: Stretch, undecided?: Stretch, line?: number) => ({ compiled: { status: entry.status, match, undecided }, line });
  const upper = entry.lessThan ?? entry.lessThanOrEqual;
  if (order === 'git') {
    // A commit or tag equal to the version asked is the only way a git entry decides; none of these is one.
    const texts = [entry.version, entry.lessThan, entry.lessThanOrEqual, ...entry.changes.map((change) => change.at)];
    if (texts.some((text) => text !== null && isRankableVersion(text))) throw new Uncompiled();
    return upper === null ? nowhere() : nowhere(undefined, EVERYWHERE);
  }
  const line = lineOf(order);
  if (upper === null) {
    if (parsedBound(order, entry.version) !== undefined) {
      const at = { text: entry.version, closed: true };
      return nowhere({ from: at, to: at }, undefined, line);
    }
    if (!TOKEN.test(entry.version) || PATTERN.test(entry.version)) return nowhere(undefined, EVERYWHERE);
    if (isRankableVersion(entry.version.toLowerCase())) throw new Uncompiled();
    return nowhere();
  }
  if (entry.changes.length > 0) throw new Uncompiled();
  let from: End | null = null;
  if (!isNoLowerBound(entry.version)) {
    if (parsedBound(order, entry.version) === undefined) return nowhere(undefined, EVERYWHERE);
    from = { text: entry.version, closed: true };
  }
  const star = STAR.exec(upper);
  if (star) {
    const series = star[1]!;
    if (series === '') return nowhere({ from, to: null }, undefined, line);
    if (parsedBound(order, series) === undefined) return nowhere(undefined, { from, to: null }, line);
    if (line !== 0) throw new Uncompiled();
    // A version of the series (`6.1.63` of `6.1.*`) written as plain release numbers is one below the next series.
    const plain = series.replace(/^v/i, '');
    const to = PLAIN_SERIES.test(plain) ? { text: nextSeries(plain), closed: false } : { text: series, closed: true };
    return nowhere({ from, to }, undefined, line);
  }
  if (parsedBound(order, upper) === undefined) return nowhere(undefined, { from, to: null }, line);
  return nowhere({ from, to: { text: upper, closed: entry.lessThan === null } }, undefined, line);
}

/** `6.1` to `6.2`: the last number one up. */
function nextSeries(series: string): string {
  const parts = series.split('.');
  parts[parts.length - 1] = (BigInt(parts.at(-1)!) + 1n).toString();
  return parts.join('.');
}

/** A record's selected products, each entry compiled by `compile`; undefined when one cannot be. */
function compileProducts(
  details: CheckedDetails | undefined,
  names: ReadonlySet<string>,
  compile: (entry: AffectedVersion) => CompiledEntry,
): Pick<CompiledRecord, 'cna' | 'adp'> | undefined {
  const affected = details?.affected ?? [];
  const adpAffected = details?.adpAffected ?? [];
  const selects = namedIn(names);
  const named = [...affected, ...adpAffected].some(selects);
  const compileProduct = (product: AffectedProduct): CompiledProduct | undefined =>
    named && !selects(product)
      ? undefined
      : { defaultStatus: product.defaultStatus ?? null, entries: (product.versionList ?? []).map(compile) };
  try {
    return { cna: affected.map(compileProduct), adp: adpAffected.map(compileProduct) };
  } catch (error) {
    if (error instanceof Uncompiled) return undefined;
    throw error;
  }
}

/**
 * The record at any commit id with a letter that begins unlike every commit it names (`commits`, filled
 * here), its products selected as a project's check selects them; undefined when it must be checked one
 * by one at such versions.
 */
export function compileForCommits(
  details: CheckedDetails | undefined,
  names: ReadonlySet<string>,
  commits: string[],
): CompiledRecord | undefined {
  const products = compileProducts(details, names, (entry) => compileForCommit(entry, commits));
  return products && { line: undefined, keys: [], texts: [], places: new Map(), ...products };
}

/**
 * The record compiled for the range index, its products selected as a project's check selects them;
 * undefined when its answer must be checked one by one.
 */
export function compileRecord(details: CheckedDetails | undefined, names: ReadonlySet<string>): CompiledRecord | undefined {
  let line: number | undefined;
  const texts: string[] = [];
  const products = compileProducts(details, names, (entry) => {
    const compiled = compileEntry(entry);
    const ends = [compiled.compiled.match, compiled.compiled.undecided].flatMap((stretch) => [stretch?.from, stretch?.to]);
    const bounded = ends.filter((end): end is End => end !== undefined && end !== null);
    if (compiled.line !== undefined && bounded.length > 0) {
      if (line !== undefined && line !== compiled.line) throw new Uncompiled();
      line = compiled.line;
      for (const end of bounded) texts.push(end.text);
    }
    return compiled.compiled;
  });
  if (products === undefined) return undefined;
  const { cna, adp } = products;
  if (line === undefined) return { line, keys: [], texts: [], places: new Map(), cna, adp };
  // The record's distinct bounds, ascending; texts of one key (`1.0`, `1`) share its place.
  const order = LINE_ORDERS[line]!;
  const parsed = [...new Set(texts)].map((text) => ({ text, key: parsedBound(order, text) }));
  parsed.sort((a, b) => order.compare(a.key, b.key));
  const keys: unknown[] = [];
  const kept: string[] = [];
  const places = new Map<string, number>();
  for (const { text, key } of parsed) {
    if (keys.length === 0 || order.compare(keys.at(-1), key) !== 0) {
      keys.push(key);
      kept.push(text);
    }
    places.set(text, keys.length - 1);
  }
  return { line, keys, texts: kept, places, cna, adp };
}

/**
 * The record's entries as numbers once its bounds are placed: per entry the doubled ranks where it matches
 * and where it cannot tell (an empty stretch as 1, 0) and its status; per product its default.
 */
interface Placed {
  readonly entries: Int32Array;
  readonly defaultStatus: VersionStatus | null;
  readonly empty: boolean;
}

const FIELDS = 5;

function place(product: CompiledProduct, places: ReadonlyMap<string, number>, top: number): Placed {
  const entries = new Int32Array(product.entries.length * FIELDS);
  const low = (stretch: Stretch) => (stretch.from === null ? 0 : 2 * places.get(stretch.from.text)! + (stretch.from.closed ? 1 : 2));
  const high = (stretch: Stretch) => (stretch.to === null ? top : 2 * places.get(stretch.to.text)! + (stretch.to.closed ? 1 : 0));
  for (const [i, entry] of product.entries.entries()) {
    const at = i * FIELDS;
    entries.set(entry.match === undefined ? [1, 0] : [low(entry.match), high(entry.match)], at);
    entries.set(entry.undecided === undefined ? [1, 0] : [low(entry.undecided), high(entry.undecided)], at + 2);
    entries[at + 4] = STATUS_CODES[entry.status];
  }
  return { entries, defaultStatus: product.defaultStatus, empty: product.entries.length === 0 };
}

const NOT_APPLICABLE = -1;

/** The product's status code at rank q as checkProduct gives it, or NOT_APPLICABLE when it cannot place the version. */
function productAt({ entries, defaultStatus, empty }: Placed, q: number): number {
  const fallback = STATUS_CODES[defaultStatus ?? 'unknown'];
  if (empty) return defaultStatus === null ? NOT_APPLICABLE : fallback;
  let undecided = false;
  let compared = false;
  for (let at = 0; at < entries.length; at += FIELDS) {
    if (entries[at]! <= q && q <= entries[at + 1]!) return entries[at + 4]!;
    if (entries[at + 2]! <= q && q <= entries[at + 3]!) undecided = true;
    else compared = true;
  }
  if (undecided) return compared ? STATUS_CODES.unknown : NOT_APPLICABLE;
  return fallback;
}

/** The record's status at rank q, as checkRecord combines its products: CNA first, `affected` over `unknown` over `unaffected`. */
function recordAt(sources: readonly (readonly Placed[])[], q: number): VersionStatus {
  for (const products of sources) {
    let unaffected = false;
    let unknown = false;
    for (const product of products) {
      const status = productAt(product, q);
      if (status === STATUS_CODES.affected) return 'affected';
      if (status === STATUS_CODES.unaffected) unaffected = true;
      else if (status === STATUS_CODES.unknown) unknown = true;
    }
    if (unknown) return 'unknown';
    if (unaffected) return 'unaffected';
  }
  return 'unknown';
}

/** The record's status at each doubled rank of its own bounds, 0 to 2k (one status when it has none). */
export function statusesAlong(record: CompiledRecord): VersionStatus[] {
  const top = 2 * record.keys.length;
  const selected = (products: readonly (CompiledProduct | undefined)[]) =>
    products.filter((product) => product !== undefined).map((product) => place(product, record.places, top));
  const sources = [selected(record.cna), selected(record.adp)];
  return Array.from({ length: top + 1 }, (_, q) => recordAt(sources, q));
}
