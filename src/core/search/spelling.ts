// How far a word that is not known as typed may be stretched to meet one that is. Shared by the
// record vocabulary and the project names, so "opnessl" is forgiven the same way in both.
import SearchableMap from 'minisearch/SearchableMap';

const DIGITS = /^\d+$/;

/**
 * Longer words are looked up as typed or by their start, never by nearness: the edit-distance search
 * costs time and memory in the square of the word's length, and no real word this long is mistyped
 * into another real word. Bounds the cost of any one word of any query.
 */
export const MAX_FUZZY_LENGTH = 32;

/**
 * Edits (Levenshtein) forgiven in a word: none below four letters, where one edit turns most words
 * into other real words; two from six letters, because a swap of two neighbours ("opnessl",
 * "tomact") costs two. Numbers are never corrected: 1809 is not a typo of 1803.
 */
function allowedEdits(word: string): number {
  if (DIGITS.test(word) || word.length > MAX_FUZZY_LENGTH) return 0;
  if (word.length >= 6) return 2;
  return word.length >= 4 ? 1 : 0;
}

/**
 * Words with values, looked up exactly, by their start, or by nearness. Kept as one prefix tree per
 * first character: a typo in the first letter is rare and is not forgiven, and searching one tree of
 * a few thousand words rather than all of them makes a typo look-up about thirty times faster. A tree
 * is built the first time a word of its letter needs one, so a large vocabulary costs nothing at start.
 */
export class WordTree<T> {
  private readonly pending = new Map<string, [string, T][]>();
  private readonly trees = new Map<string, SearchableMap<T>>();

  constructor(entries: Iterable<readonly [string, T]>) {
    for (const [word, value] of entries) {
      const first = word.charAt(0);
      const bucket = this.pending.get(first);
      if (bucket) bucket.push([word, value]);
      else this.pending.set(first, [[word, value]]);
    }
  }

  private tree(first: string): SearchableMap<T> | undefined {
    const built = this.trees.get(first);
    if (built) return built;
    const bucket = this.pending.get(first);
    if (!bucket) return undefined;
    const tree = new SearchableMap<T>();
    for (const [word, value] of bucket) tree.set(word, value);
    this.trees.set(first, tree);
    this.pending.delete(first);
    return tree;
  }

  /** Builds every tree not built yet, pausing after each (see Derived), so no request pays for one. */
  *buildSteps(): Generator<void, void, void> {
    for (const first of [...this.pending.keys()]) {
      this.tree(first);
      yield;
    }
  }

  get(word: string): T | undefined {
    return this.tree(word.charAt(0))?.get(word);
  }

  /** Entries whose word begins with `word`, when `word` is long enough to mean something as a start. */
  startingWith(word: string, minLength: number): [string, T][] {
    if (word.length < minLength || DIGITS.test(word)) return [];
    return [...(this.tree(word.charAt(0))?.atPrefix(word).entries() ?? [])];
  }

  /** Entries within the edits forgiven for `word`, keeping only those at the smallest distance. */
  nearest(word: string): [string, T][] {
    const edits = allowedEdits(word);
    if (edits === 0) return [];
    const tree = this.tree(word.charAt(0));
    if (!tree) return [];
    const near = [...tree.fuzzyGet(word, edits)];
    const closest = Math.min(...near.map(([, [, distance]]) => distance));
    return near.filter(([, [, distance]]) => distance === closest).map(([key, [value]]) => [key, value]);
  }
}
