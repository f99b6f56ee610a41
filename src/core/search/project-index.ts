// Project names as a query can spell them. A name is looked up by its words with filler dropped
// ("iOS and iPadOS" is `ios ipados`), by those words run together ("nodejs" finds Node.js), and, for
// names that are a source repository, by the repository's own name (the CNA of curl names its product
// `https://github.com/curl/curl`). Unknown words may also be the start of a name or a typo of one.
import { WordTree } from './spelling.js';
import { STOP_WORDS, words } from './words.js';

export type ApproximateKind = 'prefix' | 'typo';

export interface ApproximateProjects {
  readonly kind: ApproximateKind;
  readonly projects: readonly string[];
}

export interface ProjectIndex {
  /** Projects named exactly by these words, sorted; empty when none. */
  named(phrase: readonly string[]): readonly string[];
  /** Projects whose run-together name begins with `word`, else is nearest to it within the typos forgiven. */
  approximate(word: string): ApproximateProjects | undefined;
  /** Words in the longest name: no phrase longer than this can name a project. */
  readonly longestName: number;
}

/** A prefix or typo matching more names than this is too vague to call a project. */
const MAX_APPROXIMATE = 10;
/** Shorter prefixes ("lib", "wp-") begin too many names to mean one. */
const MIN_PREFIX = 4;

const REPOSITORY_URL =
  /^(?:https?:\/\/)?(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org)\/[^/\s]+\/([^/\s]+?)(?:\.git)?(?:\/v\d+)?\/?$/i;
// Lower case on purpose: "FAST/TOOLS" or "P1/P2" are product names with a slash, not owner/repository.
const OWNER_REPOSITORY = /^[a-z0-9][a-z0-9._-]*\/([a-z0-9][a-z0-9._-]*)$/;

/** The word sequences under which a project name can be looked up. */
export function projectKeys(name: string): string[][] {
  const keys = [meaningfulWords(name)];
  const repository = REPOSITORY_URL.exec(name)?.[1] ?? OWNER_REPOSITORY.exec(name)?.[1];
  if (repository !== undefined) keys.push(meaningfulWords(repository));
  return keys.filter((key) => key.length > 0);
}

/**
 * The index of project names. A project is also found by its other spellings (`aliases`: "Oracle MySQL"
 * finds MySQL Server, "linux kernel" finds Linux), as the importer recorded them.
 */
export function buildProjectIndex(names: Iterable<string>, aliases: ReadonlyMap<string, readonly string[]> = new Map()): ProjectIndex {
  const byKey = new Map<string, Set<string>>();
  const byCompactKey = new Map<string, Set<string>>();
  let longestName = 0;
  const add = (map: Map<string, Set<string>>, key: string, name: string) => {
    const set = map.get(key);
    if (set) set.add(name);
    else map.set(key, new Set([name]));
  };
  for (const name of names) {
    for (const spelling of [name, ...(aliases.get(name) ?? [])]) {
      for (const key of projectKeys(spelling)) {
        longestName = Math.max(longestName, key.length);
        add(byKey, key.join(' '), name);
        add(byKey, key.join(''), name);
        add(byCompactKey, key.join(''), name);
      }
    }
  }
  const compact = new WordTree(byCompactKey);

  const lookup = (key: string): readonly string[] => [...(byKey.get(key) ?? [])];
  return {
    longestName,
    named(phrase) {
      if (phrase.length === 0) return [];
      const spaced = lookup(phrase.join(' '));
      const joined = phrase.length > 1 ? lookup(phrase.join('')) : [];
      return [...new Set([...spaced, ...joined])].sort();
    },
    approximate(word) {
      const longer = compact.startingWith(word, MIN_PREFIX);
      if (longer.length > 0)
        return specific(
          'prefix',
          longer.map(([, set]) => set),
        );
      const near = compact.nearest(word);
      return near.length > 0
        ? specific(
            'typo',
            near.map(([, set]) => set),
          )
        : undefined;
    },
  };
}

function specific(kind: ApproximateKind, sets: readonly Set<string>[]): ApproximateProjects | undefined {
  const projects = [...new Set(sets.flatMap((set) => [...set]))].sort();
  return projects.length <= MAX_APPROXIMATE ? { kind, projects } : undefined;
}

function meaningfulWords(text: string): string[] {
  return words(text).filter((word) => !STOP_WORDS.has(word));
}
