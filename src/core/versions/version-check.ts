// Whether a version is affected, by the algorithm of the CVE JSON 5 schema (docs/versions.md of
// CVEProject/cve-schema): the first `versions` entry that matches the version gives its status (a range's
// status refined by its `changes`, re-sorted), and a version no entry matches takes `defaultStatus`
// (`unknown` when absent). Where the record does not let us decide (a bound that is no version of its
// type, a git commit we cannot place), the answer is `unknown`: never a guess.
import type { AffectedVersion, VersionStatus } from '../../contract/index.js';
import { type AnyVersionOrder, versionOrder } from './version-order.js';

/** What a product states about versions: its entries and its default. */
export interface ProductVersions {
  readonly defaultStatus?: VersionStatus | null | undefined;
  readonly versionList?: readonly AffectedVersion[] | undefined;
}

/** A product's answer for a version, and what gave it. */
export interface ProductVerdict {
  readonly status: VersionStatus;
  /** The entry of versionList that matched, or null when defaultStatus (or nothing) decided. */
  readonly entry: number | null;
  /**
   * Whether the product could place the version at all: false when none of its entries compares with it
   * (a release number against git commits), so another product entry of the record decides instead.
   */
  readonly applicable: boolean;
}

type EntryMatch = VersionStatus | 'no-match' | 'undecidable';

/** Upper bounds of `*` (no limit) and `1.*` (the whole 1 series). */
export const STAR = /^(.*?)\.?\*$/;
/** A plain version token: what a single-version entry can be compared with as a string. */
export const TOKEN = /^[0-9A-Za-z][0-9A-Za-z._+~:-]*$/;
/** Tokens that are patterns, not versions (`5.x`, `2.4.*`). */
export const PATTERN = /(?:^|\.)[xX*](?:$|\.)/;
/** A git commit id, full or abbreviated. */
export const COMMIT = /^[0-9a-f]{7,40}$/i;
/** The longest version a check reads: the CVE JSON 5 schema's limit. */
export const MAX_CHECKED_VERSION = 1024;

export function checkProduct(product: ProductVersions, version: string): ProductVerdict {
  const entries = product.versionList ?? [];
  const fallback: VersionStatus = product.defaultStatus ?? 'unknown';
  if (entries.length === 0) return { status: fallback, entry: null, applicable: product.defaultStatus != null };
  let undecided = false;
  let compared = false;
  for (const [index, entry] of entries.entries()) {
    const match = matchEntry(entry, version);
    if (match === 'undecidable') undecided = true;
    else if (match === 'no-match') compared = true;
    else return { status: match, entry: index, applicable: true };
  }
  if (undecided) return { status: 'unknown', entry: null, applicable: compared };
  return { status: fallback, entry: null, applicable: true };
}

/** The status an entry gives a version, whether it does not match it, or whether that cannot be told. */
export function matchEntry(entry: AffectedVersion, version: string): EntryMatch {
  const upper = entry.lessThan ?? entry.lessThanOrEqual;
  const order = versionOrder(entry.versionType);
  if (upper === null) return order === 'git' ? gitSingle(entry, version) : single(entry, order, version);
  if (order === 'git') return gitRange(entry, version);
  const v = parsedVersion(order, version);
  if (v === undefined) return 'undecidable';
  if (!isNoLowerBound(entry.version)) {
    const low = parsedBound(order, entry.version);
    if (low === undefined) return 'undecidable';
    if (order.compare(low, v) > 0) return 'no-match';
  }
  const below = belowUpper(order, v, version, upper, entry.lessThan !== null);
  if (below !== true) return below === false ? 'no-match' : 'undecidable';
  return withChanges(entry, order, v);
}

/**
 * The version asked about, parsed once per order: a check reads it against every entry of every record of
 * a project (the kernel's records hold dozens each), and one list or batch query asks about one version.
 */
const parsed = { version: '', commit: false, keys: new Map<AnyVersionOrder, unknown>() };
function asked(version: string): typeof parsed {
  if (parsed.version !== version) {
    parsed.version = version;
    parsed.commit = COMMIT.test(version);
    parsed.keys.clear();
  }
  return parsed;
}
function parsedVersion(order: AnyVersionOrder, version: string): unknown {
  const { keys } = asked(version);
  if (!keys.has(order)) keys.set(order, order.parse(version));
  return keys.get(order);
}

/**
 * The records' bounds parsed by their text, per order: the same few thousand bounds recur in every record
 * of a project (the kernel's `6.1.*`), and parsing them was most of a check's time. Kept to a bounded size.
 */
const BOUNDS_KEPT = 50_000;
const bounds = new Map<AnyVersionOrder, Map<string, unknown>>();
export function parsedBound(order: AnyVersionOrder, text: string): unknown {
  let kept = bounds.get(order);
  if (kept === undefined) {
    kept = new Map();
    bounds.set(order, kept);
  }
  if (kept.has(text)) return kept.get(text);
  if (kept.size >= BOUNDS_KEPT) kept.clear();
  const key = order.parse(text);
  kept.set(text, key);
  return key;
}

/** `0` is the schema's "no lower bound"; converted older records write `unspecified`, `*` or `n/a`. */
export function isNoLowerBound(text: string): boolean {
  return /^(?:0|\*|unspecified|n\/a)$/i.test(text);
}

/** Whether the version is under the upper bound; undefined when the bound is no version of the order. */
function belowUpper(order: AnyVersionOrder, v: unknown, text: string, upper: string, strict: boolean): boolean | undefined {
  const star = STAR.exec(upper);
  if (star) {
    const series = star[1]!;
    if (series === '') return true;
    const bound = parsedBound(order, series);
    if (bound === undefined) return undefined;
    return order.compare(v, bound) <= 0 || inSeries(text, series);
  }
  const bound = parsedBound(order, upper);
  if (bound === undefined) return undefined;
  const c = order.compare(v, bound);
  return strict ? c < 0 : c <= 0;
}

/** Whether a version belongs to a series (`6.1.63` to `6.1`): the `*` of `6.1.*` is larger than any of them. */
function inSeries(version: string, series: string): boolean {
  const v = version.replace(/^v/i, '');
  const s = series.replace(/^v/i, '');
  return v === s || v.startsWith(`${s}.`) || v.startsWith(`${s}-`);
}

/** The range's status at a version in it, after the changes at or before the version (sorted first, as the schema asks). */
function withChanges(entry: AffectedVersion, order: AnyVersionOrder, v: unknown): EntryMatch {
  if (entry.changes.length === 0) return entry.status;
  const changes: { at: unknown; status: VersionStatus }[] = [];
  for (const change of entry.changes) {
    const at = parsedBound(order, change.at);
    if (at === undefined) return 'undecidable';
    changes.push({ at, status: change.status });
  }
  changes.sort((a, b) => order.compare(a.at, b.at));
  let status = entry.status;
  for (const change of changes) if (order.compare(change.at, v) <= 0) status = change.status;
  return status;
}

/** A single version: equal in its order when both parse, else equal as plain tokens; a pattern cannot be told. */
function single(entry: AffectedVersion, order: AnyVersionOrder, version: string): EntryMatch {
  const a = parsedBound(order, entry.version);
  const b = parsedVersion(order, version);
  if (a !== undefined && b !== undefined) return order.compare(a, b) === 0 ? entry.status : 'no-match';
  if (!TOKEN.test(entry.version) || PATTERN.test(entry.version)) return 'undecidable';
  return entry.version.toLowerCase() === version.toLowerCase() ? entry.status : 'no-match';
}

/**
 * Two commit ids name one commit when one is a prefix of the other (records abbreviate to 12 characters);
 * what is no commit id (some records give tags under type git) only when the texts are equal.
 */
function sameCommit(a: string, version: string): boolean {
  // The version's own test is made once per version asked; a text equal to a commit id is one too.
  if (!asked(version).commit) return a === version;
  if (!COMMIT.test(a)) return false;
  const x = a.toLowerCase();
  const y = version.toLowerCase();
  return x.length <= y.length ? y.startsWith(x) : x.startsWith(y);
}

function gitSingle(entry: AffectedVersion, version: string): EntryMatch {
  return sameCommit(entry.version, version) ? entry.status : 'no-match';
}

/**
 * A git range decides only for its own commits: its first commit (the status there, when no change names it),
 * the commit of `lessThan` (outside it) and of `lessThanOrEqual` (inside, when nothing changes). Any other
 * commit's place needs the repository's history, which a record does not carry: unknown.
 */
function gitRange(entry: AffectedVersion, version: string): EntryMatch {
  const changed = entry.changes.some((change) => sameCommit(change.at, version));
  if (changed) return 'undecidable';
  if (entry.lessThan !== null && sameCommit(entry.lessThan, version)) return 'no-match';
  if (entry.changes.length > 0) return 'undecidable';
  if (sameCommit(entry.version, version)) return entry.status;
  if (entry.lessThanOrEqual !== null && sameCommit(entry.lessThanOrEqual, version)) return entry.status;
  return 'undecidable';
}
