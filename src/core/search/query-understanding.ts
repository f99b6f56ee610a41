// What a search query asks for, read by fixed rules so that the same text always means the same thing
// and every rule that fired can be shown to the caller. Knows nothing of the catalog: which words name
// a project is decided later, against the index.
import { MAX_QUERY_LENGTH, MAX_VERSION_PARAMETER_LENGTH, type RecordStatus, type Severity } from '../../contract/index.js';
import { NO_TOPIC_WORDS } from './no-topic-words.js';
import { aliasOf, type ProjectAlias } from './project-aliases.js';
import { CVSS_SPELLING, CWE_SPELLING, cweId, exploitationPhrase, severitiesReaching, severityPhrase } from './risk-words.js';
import { type SecurityTerm, securityTermOf } from './security-terms.js';
import { type DayRange, describeDays, intersectDays, timePhrase } from './time-words.js';
import { STOP_WORDS, words } from './words.js';

/**
 * Inclusive bounds on the year of the CVE identifier; an absent bound is open. The identifier's year
 * rather than the published date: every record has one (assigned records have no published date), it
 * is the year listing order sorts by and the year a reader sees, while the published date of about one
 * shipped record in five falls in a later year than its identifier.
 */
export interface YearRange {
  readonly from: number | undefined;
  readonly to: number | undefined;
}

export interface QueryTerm {
  /** The word as typed, lower case. */
  readonly word: string;
  readonly alias: ProjectAlias | undefined;
  /** The weakness an abbreviation or everyday name stands for ("xss"), when it is one. */
  readonly security?: SecurityTerm;
  /** Spellings any one of which satisfies the term: the word itself, then the alias target's words, then the records' words for a weakness. */
  readonly forms: readonly (readonly string[])[];
}

export interface QueryUnderstanding {
  readonly query: string;
  /** Identifiers asked for by name, canonical spelling, first mention first. */
  readonly ids: readonly string[];
  /** Statuses a result may have; empty means any. */
  readonly statuses: readonly RecordStatus[];
  readonly years: YearRange | undefined;
  /** Publication days a result must fall in ("since March 2024", "last month"); undefined means any. */
  readonly published: DayRange | undefined;
  /** Highest CVSS severities a result may have; undefined means any, empty that none fits. */
  readonly severities: readonly Severity[] | undefined;
  /** Whether results must be (true) or must not be (false) in CISA's KEV catalog; undefined means either. */
  readonly kev: boolean | undefined;
  /** CWE ids a result names one of, canonical spelling (`CWE-79`); empty means any. */
  readonly cwes: readonly string[];
  /**
   * A version the question asks about ("openssl 3.0.7", "is log4j 2.14.1 vulnerable"): results are the
   * records saying it is affected, for the projects the question names (search.ts); undefined means any.
   */
  readonly version: string | undefined;
  /** The words left to search for, in query order. */
  readonly terms: readonly QueryTerm[];
  readonly ignored: readonly string[];
  /** One line per rule that fired, e.g. `id CVE-2025-24530`, `year >= 2023`. */
  readonly explanation: readonly string[];
}

/** More words than this are not a search but a paste; the rest is ignored to keep a query cheap. */
export const MAX_TERMS = 32;
/** Identifiers read from one query; a batch of more is a job for the batch operation. */
export const MAX_IDS = 50;

// An identifier with its `cve` prefix may use any separator, or none; without the prefix it needs a
// hyphen or underscore, so that two numbers side by side ("2019 2020") stay two years.
const ID_SPELLING = /\bcve[\s_-]*(\d{4})[\s_-]*(\d{4,})(?![0-9a-z])|(?<![0-9a-z_-])(\d{4})[_-](\d{4,})(?![0-9a-z])/gi;
// Hyphens that word processors and phones substitute for `-` in pasted identifiers.
const DASHES = /[\u2010-\u2015\u2212]/g;

// A version: dotted numbers (at least two parts, so a year or a count is not one), an optional `v`, and
// what releases append ("1.0.2k", "2.14.1-rc1", "5.4.0+deb"). Read before identifiers, which it never
// matches (they have no dot).
const VERSION_SPELLING = /(?<![\p{L}\p{N}._+~-])v?(\d+(?:\.\d+)+(?:[a-z]\w*)?(?:[-+~][0-9a-z]+(?:\.[0-9a-z]+)*)*)(?![\p{L}\p{N}]|\.\d)/giu;

const FIRST_CVE_YEAR = 1999;
const LAST_YEAR = 2100;

const PUBLIC_WORDS = new Set(['public', 'published', 'disclosed']);
const ASSIGNED_WORDS = new Set(['assigned', 'reserved', 'unpublished', 'undisclosed', 'nonpublic']);
const NEGATIONS = new Set(['not', 'no', 'non', 'without']);

// Year bound words, as the offset from the year named: "after 2021" starts at 2022. "from 2023" alone is
// that year ("linux bugs from 2023"); it is a bound only as the start of a range ("from 2023 to 2024").
const LOWER_BOUNDS = new Map([
  ['since', 0],
  ['after', 1],
]);
const UPPER_BOUNDS = new Map([
  ['before', -1],
  ['until', 0],
  ['till', 0],
  ['through', 0],
  ['to', 0],
]);
const SINGLE_YEAR = new Set(['in', 'during', 'from']);
const RANGE_JOINERS = new Set(['to', 'until', 'till', 'through']);

/**
 * Reads a query. This is the one place every surface's text passes through (REST /ask, MCP, A2A, the
 * page, the browser tools), so the bound on a query's length is applied here: surfaces with a schema
 * refuse longer text, and text that arrives without one (an A2A message) is cut, and says so.
 */
export interface QueryContext {
  /** The day the catalog speaks for (its lastVerified, `YYYY-MM-DD`): what "this year" and "last month" are relative to. */
  readonly lastVerified?: string;
}

export function understandQuery(text: string, context: QueryContext = {}): QueryUnderstanding {
  const today = context.lastVerified === undefined ? undefined : Date.parse(context.lastVerified) / 86_400_000;
  const query = boundQuery(text);
  const cut = query.length < text.length;
  const ids: string[] = [];
  let idOverflow = false;
  const cwes: string[] = [];
  let minimumScore: number | undefined;
  const versions: string[] = [];
  const rest = query
    .normalize('NFKC')
    .replace(DASHES, '-')
    .replace(CWE_SPELLING, (_match, digits: string) => {
      const cwe = cweId(digits);
      if (!cwes.includes(cwe)) cwes.push(cwe);
      return ' ';
    })
    .replace(CVSS_SPELLING, (_match, score: string) => {
      minimumScore = Math.max(minimumScore ?? 0, Number(score));
      return ' ';
    })
    .replace(VERSION_SPELLING, (_match, version: string) => {
      if (version.length <= MAX_VERSION_PARAMETER_LENGTH && !versions.includes(version)) versions.push(version);
      return ' ';
    })
    .replace(ID_SPELLING, (_match, ...groups: unknown[]) => {
      const [year, seq] = (groups[0] === undefined ? [groups[2], groups[3]] : [groups[0], groups[1]]) as [string, string];
      const id = `CVE-${year}-${seq}`;
      if (ids.length >= MAX_IDS) idOverflow = true;
      else if (!ids.includes(id)) ids.push(id);
      return ' ';
    });

  const tokens = words(rest);
  const statuses: RecordStatus[] = [];
  const years = new YearBounds();
  let published: DayRange | undefined;
  const namedSeverities: Severity[] = [];
  let kev: boolean | undefined;
  const terms: QueryTerm[] = [];
  const ignored: string[] = [];
  let overflow = false;
  let repeated = false;
  const addStatus = (status: RecordStatus) => {
    if (!statuses.includes(status)) statuses.push(status);
  };

  for (let i = 0; i < tokens.length; ) {
    const word = tokens[i]!;
    const next = tokens[i + 1];
    const negated = negatedPublicLength(tokens, i);
    const exploitation = exploitationPhrase(tokens, i);
    const severity = severityPhrase(tokens, i);
    const time = today === undefined || Number.isNaN(today) ? undefined : timePhrase(tokens, i, today);
    if (time) {
      published = intersectDays(published, time.range);
      i += time.length;
    } else if (exploitation) {
      kev = exploitation.kev; // the last mention wins, as the explanation then says
      i += exploitation.length;
    } else if (severity) {
      for (const named of severity.severities) if (!namedSeverities.includes(named)) namedSeverities.push(named);
      i += severity.length;
    } else if (negated > 0) {
      addStatus('assigned-no-public-record');
      i += negated;
    } else if (ASSIGNED_WORDS.has(word)) {
      addStatus('assigned-no-public-record');
      i += 1;
    } else if (PUBLIC_WORDS.has(word)) {
      addStatus('public');
      i += 1;
    } else if (word === 'between' && isYear(next) && tokens[i + 2] === 'and' && isYear(tokens[i + 3])) {
      years.between(Number(next), Number(tokens[i + 3]));
      i += 4;
    } else if (isYear(word) && RANGE_JOINERS.has(next ?? '') && isYear(tokens[i + 2])) {
      years.between(Number(word), Number(tokens[i + 2]));
      i += 3;
    } else if (word === 'from' && isYear(next) && RANGE_JOINERS.has(tokens[i + 2] ?? '') && isYear(tokens[i + 3])) {
      years.between(Number(next), Number(tokens[i + 3]));
      i += 4;
    } else if (isYear(next) && LOWER_BOUNDS.has(word)) {
      years.atLeast(Number(next) + LOWER_BOUNDS.get(word)!);
      i += 2;
    } else if (isYear(next) && UPPER_BOUNDS.has(word)) {
      years.atMost(Number(next) + UPPER_BOUNDS.get(word)!);
      i += 2;
    } else if (isYear(next) && SINGLE_YEAR.has(word)) {
      years.exactly(Number(next));
      i += 2;
    } else if (isYear(word)) {
      years.exactly(Number(word));
      i += 1;
    } else {
      // A repeated word says nothing more than it did the first time, and would cost its look-ups again.
      if (STOP_WORDS.has(word)) ignored.push(word);
      else if (terms.some((term) => term.word === word)) repeated = true;
      else if (terms.length >= MAX_TERMS) overflow = true;
      else terms.push(termFor(word));
      i += 1;
    }
  }

  const range = years.range();
  // Words that say how a question is asked are set aside when anything else says what it is about.
  const asksSomething =
    ids.length > 0 ||
    statuses.length > 0 ||
    range !== undefined ||
    published !== undefined ||
    namedSeverities.length > 0 ||
    minimumScore !== undefined ||
    kev !== undefined ||
    cwes.length > 0 ||
    versions.length > 0;
  const topical = terms.filter((term) => !NO_TOPIC_WORDS.has(term.word));
  if (topical.length < terms.length && (topical.length > 0 || asksSomething)) {
    for (const term of terms) if (NO_TOPIC_WORDS.has(term.word)) ignored.push(term.word);
    terms.splice(0, terms.length, ...topical);
  }
  const reaching = minimumScore === undefined ? undefined : severitiesReaching(minimumScore);
  const severities =
    namedSeverities.length === 0 ? reaching : reaching ? namedSeverities.filter((s) => reaching.includes(s)) : namedSeverities;
  const explanation = [
    ...ids.map((id) => `id ${id}`),
    ...statuses.map((status) => `status ${status}`),
    ...(range ? [describeYears(range)] : []),
    ...(published ? [describeDays(published)] : []),
    ...describeSeverities(namedSeverities, minimumScore, severities),
    ...(kev === undefined ? [] : [kev ? 'known exploited (in CISA KEV)' : 'not known exploited (not in CISA KEV)']),
    ...(cwes.length > 0 ? [`weakness ${cwes.join(' or ')}`] : []),
    ...(versions.length > 0 ? [`version ${versions[0]}`] : []),
    ...(versions.length > 1 ? [`only the first version is checked (not ${versions.slice(1).join(', ')})`] : []),
    ...terms.flatMap((term) => (term.alias ? [`alias ${term.alias.alias} → ${term.alias.target}`] : [])),
    ...terms.flatMap((term) =>
      term.security ? [`${term.word} → ${term.security.phrases.join(' or ')} (${term.security.cwes.join(', ')})`] : [],
    ),
    ...(ignored.length > 0 ? [`ignored ${[...new Set(ignored)].join(', ')}`] : []),
    ...(terms.length > 0 ? [`words ${terms.map((term) => term.word).join(', ')}`] : []),
    ...(repeated ? ['repeated words are read once'] : []),
    ...(overflow ? [`only the first ${MAX_TERMS} words are searched`] : []),
    ...(idOverflow ? [`only the first ${MAX_IDS} identifiers are looked up`] : []),
    ...(cut ? [`only the first ${MAX_QUERY_LENGTH} characters are read`] : []),
  ];
  const version = versions[0];
  return { query, ids, statuses, years: range, published, severities, kev, cwes, version, terms, ignored, explanation };
}

/** The query cut to MAX_QUERY_LENGTH characters, never between the two halves of a surrogate pair. */
export function boundQuery(text: string): string {
  if (text.length <= MAX_QUERY_LENGTH) return text;
  const last = text.charCodeAt(MAX_QUERY_LENGTH - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? MAX_QUERY_LENGTH - 1 : MAX_QUERY_LENGTH);
}

export function yearMatches(range: YearRange | undefined, year: number): boolean {
  if (!range) return true;
  return (range.from === undefined || year >= range.from) && (range.to === undefined || year <= range.to);
}

function isYear(token: string | undefined): token is string {
  if (token === undefined || !/^\d{4}$/.test(token)) return false;
  const year = Number(token);
  return year >= FIRST_CVE_YEAR && year <= LAST_YEAR;
}

/** Length of a "not (yet) public (yet)" or "without a public record" phrase starting at `i`, or 0. */
function negatedPublicLength(tokens: readonly string[], i: number): number {
  if (!NEGATIONS.has(tokens[i] ?? '')) return 0;
  let j = i + 1;
  if (tokens[j] === 'yet' || tokens[j] === 'a' || tokens[j] === 'any') j++;
  if (!PUBLIC_WORDS.has(tokens[j] ?? '')) return 0;
  j++;
  if (tokens[j] === 'yet') j++;
  if (tokens[j] === 'record' || tokens[j] === 'records') j++;
  return j - i;
}

function termFor(word: string): QueryTerm {
  const alias = aliasOf(word);
  const security = securityTermOf(word);
  const targets = [alias?.target ?? '', ...(security?.phrases ?? [])].map((target) => words(target).filter((w) => !STOP_WORDS.has(w)));
  const forms = [[word], ...targets.filter((target) => target.length > 0 && target.join(' ') !== word)];
  return { word, alias, ...(security ? { security } : {}), forms };
}

/**
 * Named years ("2019", "in 2019") widen to the span they cover, since "2019 2020" means either; bounds
 * ("since 2022", "before 2020") narrow, since each one is a condition.
 */
class YearBounds {
  private named: [number, number] | undefined;
  private lower: number | undefined;
  private upper: number | undefined;

  exactly(year: number): void {
    this.named = this.named ? [Math.min(this.named[0], year), Math.max(this.named[1], year)] : [year, year];
  }
  atLeast(year: number): void {
    this.lower = this.lower === undefined ? year : Math.max(this.lower, year);
  }
  atMost(year: number): void {
    this.upper = this.upper === undefined ? year : Math.min(this.upper, year);
  }
  between(a: number, b: number): void {
    this.atLeast(Math.min(a, b));
    this.atMost(Math.max(a, b));
  }
  range(): YearRange | undefined {
    const from = maxDefined(this.named?.[0], this.lower);
    const to = minDefined(this.named?.[1], this.upper);
    return from === undefined && to === undefined ? undefined : { from, to };
  }
}

function maxDefined(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}

function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

/** What the severity words and a CVSS bound selected; a bound reads as the severity bands that reach it. */
function describeSeverities(named: readonly Severity[], score: number | undefined, severities: readonly Severity[] | undefined): string[] {
  if (severities === undefined) return [];
  const which = severities.length > 0 ? `severity ${severities.join(' or ')}` : 'no severity fits';
  if (score === undefined) return [which];
  const words = named.length > 0 ? ` and severity ${named.join(' or ')}` : '';
  return [`cvss >= ${score}${words} → ${which} (the highest severity of each record)`];
}

function describeYears({ from, to }: YearRange): string {
  if (from !== undefined && to !== undefined) {
    if (from > to) return `year >= ${from} and <= ${to}: no year fits`;
    return from === to ? `year = ${from}` : `year ${from} to ${to}`;
  }
  return from !== undefined ? `year >= ${from}` : `year <= ${to}`;
}
