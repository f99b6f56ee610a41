// Record search: identifiers, project names, status and year words, and ranked free text, with the
// reading of the query returned beside the hits so a caller can show why each record is there.
import type { RecordEntry, Snapshot } from '../snapshot.js';
import { type QueryUnderstanding, understandQuery, yearMatches } from './query-understanding.js';
import { rankByWords } from './ranking.js';

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

export function search(snapshot: Snapshot, text: string, limit: number): SearchResult {
  const understanding = understandQuery(queryToSearch(text));
  const { ids, statuses, years, terms } = understanding;
  const accept = (entry: RecordEntry) =>
    (statuses.length === 0 || statuses.includes(entry.record.status)) && yearMatches(years, idYear(entry.record.id));
  const result = (hits: SearchHit[], extra: readonly string[] = []): SearchResult => ({
    hits: hits.slice(0, Math.max(0, limit)),
    understanding,
    explanation: [...understanding.explanation, ...extra],
  });

  const named = ids.flatMap((id) => {
    const entry = snapshot.get(id);
    return entry && accept(entry) ? [{ entry, score: 1 }] : [];
  });
  const missing = ids.filter((id) => !named.some((hit) => hit.entry.record.id === id)).map((id) => `no record ${id}`);

  if (terms.length === 0) {
    if (ids.length > 0) return result(named, missing);
    return result(newest(snapshot, understanding, limit), ['no words to rank by: newest first']);
  }

  const index = snapshot.search.get();
  const acceptPosition = (position: number) =>
    (statuses.length === 0 || statuses.includes(index.entries[position]!.record.status)) && yearMatches(years, index.years[position]!);
  // Ask for as many more as there are named identifiers, which may be among the ranked records too.
  const { ranked, explanation } = rankByWords(index, terms, acceptPosition, Math.max(0, limit) + named.length);
  const seen = new Set(named.map((hit) => hit.entry.record.id));
  const byWords = ranked.flatMap(({ position, score }) => {
    const entry = index.entries[position]!;
    return seen.has(entry.record.id) ? [] : [{ entry, score }];
  });
  return result([...named, ...byWords], [...missing, ...explanation]);
}

/**
 * `search` once the snapshot's index is ready. Just after a start or a reload the index may still be
 * building in steps between requests; a caller waits for that build instead of starting another.
 */
export async function searchWhenReady(snapshot: Snapshot, text: string, limit: number): Promise<SearchResult> {
  await snapshot.search.prepare();
  return search(snapshot, text, limit);
}

/** The hits of `search`, for callers that do not show the explanation. */
export function searchRecords(snapshot: Snapshot, text: string, limit: number): SearchHit[] {
  return search(snapshot, text, limit).hits;
}

/** Records meeting the status and year words, newest first, at one neutral score. */
function newest(snapshot: Snapshot, { statuses, years }: QueryUnderstanding, limit: number): SearchHit[] {
  // One status has its own list in the snapshot; walking it skips the other status's records.
  const records = snapshot.select(statuses.length === 1 ? { status: statuses[0] } : {});
  const hits: SearchHit[] = [];
  // Listing order is newest year first, so the years asked for are one run: bisect to its start.
  let low = 0;
  let high = records.length;
  while (years?.to !== undefined && low < high) {
    const middle = (low + high) >>> 1;
    if (idYear(records[middle]!.id) > years.to) low = middle + 1;
    else high = middle;
  }
  for (let i = low; i < records.length && hits.length < limit; i++) {
    const record = records[i]!;
    if (years?.from !== undefined && idYear(record.id) < years.from) break;
    if (statuses.length === 0 || statuses.includes(record.status)) hits.push({ entry: snapshot.get(record.id)!, score: FILTER_ONLY_SCORE });
  }
  return hits;
}

/** The year of a CVE identifier: what year words filter on (see query-understanding.ts). */
function idYear(id: string): number {
  return Number(id.slice(4, 8));
}
