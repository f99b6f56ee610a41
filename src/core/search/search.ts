// Record search: identifiers, project names, status and year words, and ranked free text, with the
// reading of the query returned beside the hits so a caller can show why each record is there.
import { SEVERITIES } from '../../contract/index.js';
import { inSteps, settled } from '../derived.js';
import { partitionPoint } from '../partition-point.js';
import { NO_DATE, namesCwe, STATUS_CODES } from '../record-table.js';
import type { RecordEntry, Snapshot } from '../snapshot.js';
import { type AskedVersion, askedVersionSteps } from './asked-version.js';
import { type QueryUnderstanding, understandQuery, yearMatches } from './query-understanding.js';
import { rankByWords } from './ranking.js';
import { relax } from './relaxation.js';
import { type DayRange, inDays } from './time-words.js';

export interface SearchHit {
  readonly entry: RecordEntry;
  /** Relevance in [0, 1]: 1 for an exact identifier. */
  readonly score: number;
}

export interface SearchResult {
  readonly hits: SearchHit[];
  readonly understanding: QueryUnderstanding;
  /** The understanding's lines, then what the catalog made of the words (projects named, typos read). */
  readonly explanation: readonly string[];
}

export const DEFAULT_SEARCH_PHRASE = 'public CVE records';

/**
 * Score of a record that meets a query made only of status and year words: it fits, but the query
 * gives nothing to rank by, so records come newest first at one neutral score.
 */
const FILTER_ONLY_SCORE = 0.5;

/** The text a search reads: the caller's, or the default phrase when it is blank (the one place it is applied). */
export function queryToSearch(text: string | undefined): string {
  return text?.trim() || DEFAULT_SEARCH_PHRASE;
}

/** Filters that leave nothing give way one at a time (relaxation.ts); a few steps reach any answer there is. */
const MAX_RELAXATIONS = 8;

export function search(snapshot: Snapshot, text: string, limit: number): SearchResult {
  const understanding = understand(snapshot, text);
  return searchUnderstood(snapshot, understanding, limit, settled(askedVersionSteps(snapshot, understanding)));
}

function understand(snapshot: Snapshot, text: string): QueryUnderstanding {
  return understandQuery(queryToSearch(text), { lastVerified: snapshot.lastVerified });
}

function searchUnderstood(
  snapshot: Snapshot,
  understanding: QueryUnderstanding,
  limit: number,
  version: AskedVersion | undefined,
): SearchResult {
  let found = answer(snapshot, understanding, limit, version);
  // Identifiers asked for by name are answered as they are: a relaxed filter would not bring them back.
  if (understanding.ids.length > 0) return found;
  const readings: string[] = [];
  let reading = understanding;
  for (let step = 0; step < MAX_RELAXATIONS && found.hits.length === 0 && limit > 0; step++) {
    const relaxed = relax(reading);
    if (!relaxed) break;
    reading = relaxed.understanding;
    readings.push(relaxed.reading);
    const next = answer(snapshot, reading, limit, reading.version === undefined ? undefined : version);
    if (next.hits.length > 0) found = { ...next, understanding, explanation: [...found.explanation, ...readings] };
  }
  return found;
}

/** The records that meet one reading of a query. */
function answer(snapshot: Snapshot, understanding: QueryUnderstanding, limit: number, version: AskedVersion | undefined): SearchResult {
  const { ids, statuses, years, published, severities, kev, cwes, terms } = understanding;
  const { table } = snapshot;
  const affected = version?.affected;
  const statusCodes = statuses.map((wanted) => STATUS_CODES.indexOf(wanted));
  const severityCodes = severities?.map((wanted) => SEVERITIES.indexOf(wanted));
  const kevCode = kev === undefined ? undefined : kev ? 1 : 0;
  const cweCodeOf = new Map(cwes.map((cwe) => [cwe, snapshot.filters.cweCode(cwe)]));
  const cweCodes = [...cweCodeOf.values()].filter((code) => code !== undefined);
  const accept = (position: number) =>
    (affected === undefined || affected.has(position)) &&
    (statusCodes.length === 0 || statusCodes.includes(table.status[position]!)) &&
    yearMatches(years, table.year[position]!) &&
    inDays(published, table.published[position]!) &&
    (severityCodes === undefined || severityCodes.includes(table.severity[position]!)) &&
    (kevCode === undefined || table.kev[position] === kevCode) &&
    (cwes.length === 0 || cweCodes.some((code) => namesCwe(table, position, code)));
  // A CWE id no record names explains an empty answer better than "no records" would.
  const unnamedCwes = cwes.filter((cwe) => cweCodeOf.get(cwe) === undefined).map((cwe) => `no record names ${cwe}`);
  const result = (hits: SearchHit[], extra: readonly string[] = []): SearchResult => ({
    hits: hits.slice(0, Math.max(0, limit)),
    understanding,
    explanation: [...understanding.explanation, ...unnamedCwes, ...(version ? [version.explanation] : []), ...extra],
  });

  const named = ids.flatMap((id) => {
    const position = snapshot.positionOf(id);
    return position !== undefined && accept(position) ? [{ entry: snapshot.entryAt(position), score: 1 }] : [];
  });
  const missing = ids.filter((id) => !named.some((hit) => hit.entry.record.id === id)).map((id) => `no record ${id}`);

  if (terms.length === 0) {
    if (ids.length > 0) return result(named, missing);
    return result(newest(snapshot, filteredPositions(snapshot, understanding), accept, limit), ['no words to rank by: newest first']);
  }

  // Ask for as many more as there are named identifiers, which may be among the ranked records too; for
  // none when no record meets the filters, found by a walk of their shortest list: ranking would read
  // every record holding a word to refuse each, and a question whose filters leave nothing is ranked
  // again at each filter relaxed. The words are still read, for what they are explained as.
  const within = filteredPositions(snapshot, understanding);
  const wanted = newest(snapshot, within, accept, 1).length > 0 ? Math.max(0, limit) + named.length : 0;
  const { ranked, explanation } = rankByWords(snapshot, snapshot.search.get(), terms, accept, wanted, {
    statusAsked: statuses.length > 0,
    ...(within.length < snapshot.size ? { within } : {}),
  });
  const seen = new Set(named.map((hit) => hit.entry.position));
  const byWords = ranked.flatMap(({ position, score }) => (seen.has(position) ? [] : [{ entry: snapshot.entryAt(position), score }]));
  return result([...named, ...byWords], [...missing, ...explanation]);
}

/**
 * `search` once the snapshot's index is ready. Just after a start or a reload the index may still be
 * building in steps between requests; a caller waits for that build instead of starting another.
 */
export async function searchWhenReady(snapshot: Snapshot, text: string, limit: number): Promise<SearchResult> {
  await snapshot.search.prepare();
  const understanding = understand(snapshot, text);
  // A version is checked on the version index, built in steps on first use as the search index is.
  if (understanding.version !== undefined) await snapshot.versions.prepare();
  return searchUnderstood(snapshot, understanding, limit, await inSteps(askedVersionSteps(snapshot, understanding)));
}

/** The hits of `search`, for callers that do not show the explanation. */
export function searchRecords(snapshot: Snapshot, text: string, limit: number): SearchHit[] {
  return search(snapshot, text, limit).hits;
}

/** The first `limit` of `positions` that `accept` takes, newest first (listing order), at one neutral score. */
function newest(snapshot: Snapshot, positions: Int32Array, accept: (position: number) => boolean, limit: number): SearchHit[] {
  const hits: SearchHit[] = [];
  for (let i = 0; i < positions.length && hits.length < limit; i++) {
    const position = positions[i]!;
    if (accept(position)) hits.push({ entry: snapshot.entryAt(position), score: FILTER_ONLY_SCORE });
  }
  return hits;
}

/**
 * Positions holding every record the filters may take: the shortest list of a filter (shortestList),
 * cut to the years asked for. Listing order is newest year first, so those years are one run of it,
 * found by bisection. None when the days asked for are all before the first publication or after the
 * last: "last month" of a catalog verified after its newest record would otherwise walk every record
 * at each filter relaxed.
 */
function filteredPositions(snapshot: Snapshot, understanding: QueryUnderstanding): Int32Array {
  const { years, published } = understanding;
  const positions = shortestList(snapshot, understanding);
  if (published && !overlapsPublication(snapshot.table.published, published)) return positions.subarray(0, 0);
  const { year } = snapshot.table;
  // The first position whose year is at or below `bound`.
  const firstAtOrBelow = (bound: number) => partitionPoint(0, positions.length, (i) => year[positions[i]!]! > bound);
  const start = years?.to === undefined ? 0 : firstAtOrBelow(years.to);
  const end = years?.from === undefined ? positions.length : firstAtOrBelow(years.from - 1);
  return positions.subarray(start, Math.max(start, end));
}

/** The first and last publication day of each table's published column, found once. */
const publicationSpans = new WeakMap<Int32Array, { readonly first: number; readonly last: number }>();

/** Whether some day of `range` falls between a catalog's first and last publication. */
function overlapsPublication(published: Int32Array, range: DayRange): boolean {
  let span = publicationSpans.get(published);
  if (!span) {
    let first = Number.POSITIVE_INFINITY;
    let last = Number.NEGATIVE_INFINITY;
    for (const day of published) {
      if (day === NO_DATE) continue;
      first = Math.min(first, day);
      last = Math.max(last, day);
    }
    span = { first, last };
    publicationSpans.set(published, span);
  }
  return (range.since === undefined || range.since <= span.last) && (range.before === undefined || range.before > span.first);
}

/**
 * The shortest of the snapshot's position lists that holds every record the words can select: a filter
 * naming one status, one severity, one CWE or known exploitation has its own list, and walking it skips
 * the records the others would refuse one by one.
 */
function shortestList(snapshot: Snapshot, { statuses, severities, kev, cwes }: QueryUnderstanding): Int32Array {
  const { filters } = snapshot;
  const lists = [
    filters.all,
    ...(statuses.length === 1 ? [filters.status(statuses[0]!)] : []),
    ...(severities?.length === 1 ? [filters.severity(severities[0]!)] : []),
    ...(kev === true ? [filters.knownExploited] : []),
    ...(cwes.length === 1 ? [filters.cwe(cwes[0]!)] : []),
  ];
  return lists.reduce((shortest, list) => (list.length < shortest.length ? list : shortest));
}
