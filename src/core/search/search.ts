// Record search. This first version understands CVE identifiers in their common spellings and exact
// project names; ranked free-text search replaces it behind the same signature.
import type { RecordEntry, Snapshot } from '../snapshot.js';

export interface SearchHit {
  readonly entry: RecordEntry;
  /** Relevance in [0, 1]: 1 for an exact identifier. */
  readonly score: number;
}

export const DEFAULT_SEARCH_PHRASE = 'public CVE records';

const ID_SPELLING = /\b(?:cve[\s_-]*)?(\d{4})[\s_-]+(\d{4,})\b/gi;

export function searchRecords(snapshot: Snapshot, text: string, limit: number): SearchHit[] {
  const hits: SearchHit[] = [];
  const seen = new Set<string>();
  const add = (entry: RecordEntry | undefined, score: number): void => {
    if (entry && !seen.has(entry.record.id) && hits.length < limit) {
      seen.add(entry.record.id);
      hits.push({ entry, score });
    }
  };
  for (const match of text.matchAll(ID_SPELLING)) add(snapshot.get(`CVE-${match[1]}-${match[2]}`), 1);
  const project = text.trim().toLowerCase();
  for (const record of snapshot.select({})) {
    if (hits.length >= limit) break;
    if (record.project.toLowerCase() === project) add(snapshot.get(record.id), 0.9);
  }
  return hits;
}
