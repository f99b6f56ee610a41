// Every word the index holds, with how many records hold it, so a query word can be checked and, when
// unknown, stretched to known words before any record is scored. Choosing here, rather than fuzzing
// every word during the search, keeps "curl" from also matching "url" and "cure", and lets the
// explanation say which words a typo was read as.
import { WordTree } from './spelling.js';
import type { TextIndex } from './text-index.js';

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
  private readonly tree: WordTree<true>;

  constructor(private readonly index: TextIndex) {
    this.tree = new WordTree(index.words.map((word) => [word, true] as const));
  }

  /** Builds the look-up trees of every letter, pausing between them. */
  *buildSteps(): Generator<void, void, void> {
    yield* this.tree.buildSteps();
  }

  has(term: string): boolean {
    return this.index.frequency(term) > 0;
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
    const longer = this.tree.startingWith(word, MIN_PREFIX);
    if (longer.length > 0) return { kind: 'prefix', terms: this.mostFrequent(longer.map(([term]) => term)) };
    const near = this.tree.nearest(word);
    return near.length > 0 ? { kind: 'typo', terms: this.mostFrequent(near.map(([term]) => term)) } : undefined;
  }

  private mostFrequent(terms: readonly string[]): string[] {
    return terms
      .map((term) => [term, this.index.frequency(term)] as const)
      .sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, MAX_EXPANSIONS)
      .map(([term]) => term);
  }
}

/** `overflow` ↔ `overflows`. Words ending in `ss` (xss, access, bypass) are not plurals. */
function pluralOrSingular(word: string): string | undefined {
  if (!word.endsWith('s')) return `${word}s`;
  return word.endsWith('ss') || word.length < 4 ? undefined : word.slice(0, -1);
}
