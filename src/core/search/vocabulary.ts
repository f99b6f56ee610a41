// Every word the index holds, with how many records hold it, so a query word can be checked and, when
// unknown, stretched to known words before any record is scored. Choosing here, rather than fuzzing
// every word during the search, keeps "curl" from also matching "url" and "cure", and lets the
// explanation say which words a typo was read as.
import { WordTree } from './spelling.js';

export type WordMatchKind = 'exact' | 'prefix' | 'typo';

export interface WordMatch {
  readonly kind: WordMatchKind;
  /** Indexed words that stand for the query word, the word itself or the most frequent first. */
  readonly terms: readonly string[];
}

/** Prefixes and typos stop here: past this many candidates the word no longer says much. */
const MAX_EXPANSIONS = 20;
const MIN_PREFIX = 3;

export class Vocabulary {
  private readonly counts: WordTree<number>;

  /** `counts`: how many records hold each indexed word. */
  constructor(counts: ReadonlyMap<string, number>) {
    this.counts = new WordTree(counts);
  }

  has(term: string): boolean {
    return this.counts.get(term) !== undefined;
  }

  /**
   * The word itself (with its plural or singular when indexed too, the one inflection worth
   * matching); else the indexed words it begins; else the nearest indexed words within the typos
   * forgiven; else nothing.
   */
  match(word: string): WordMatch | undefined {
    if (this.has(word)) {
      const other = pluralOrSingular(word);
      return { kind: 'exact', terms: other !== undefined && this.has(other) ? [word, other] : [word] };
    }
    const longer = this.counts.startingWith(word, MIN_PREFIX);
    if (longer.length > 0) return { kind: 'prefix', terms: mostFrequent(longer) };
    const near = this.counts.nearest(word);
    return near.length > 0 ? { kind: 'typo', terms: mostFrequent(near) } : undefined;
  }
}

/** `overflow` ↔ `overflows`. Words ending in `ss` (xss, access, bypass) are not plurals. */
function pluralOrSingular(word: string): string | undefined {
  if (!word.endsWith('s')) return `${word}s`;
  return word.endsWith('ss') || word.length < 4 ? undefined : word.slice(0, -1);
}

function mostFrequent(entries: readonly (readonly [string, number])[]): string[] {
  return [...entries]
    .sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, MAX_EXPANSIONS)
    .map(([term]) => term);
}
