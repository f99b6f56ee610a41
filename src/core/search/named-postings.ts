// The records of the projects a question names (a vendor, a family, a project), as one list, and that list
// scored as ranking reads it, kept per snapshot. A vendor names up to hundreds of projects ("cisco",
// "oracle"), and uniting their record lists and filling a score list as long at every question that names
// it was most of such a question's cost; the lists are the snapshot's, so they are made once and kept,
// within a bound on the positions kept.
import type { FilterIndex } from '../filter-index.js';
import { RecentlyUsed } from '../recently-used.js';
import { type Positions, union } from './position-lists.js';
import { BLOCK, type Postings } from './text-index.js';

/** Scores a list is kept at: a named word's score depends only on the word, so a list sees few. */
const KEPT_SCORES = 2;
/**
 * Entries kept per snapshot: each list counts its positions and room for KEPT_SCORES score lists as long
 * (4 bytes each: 12 MB in all). Past it, the least recently used lists are made again when asked.
 */
const KEPT_ENTRIES = 3 << 20;

interface NamedList {
  readonly positions: Positions;
  readonly scored: Map<number, Postings>;
}

const keptBySnapshot = new WeakMap<FilterIndex, RecentlyUsed<string, NamedList>>();

/** The records of the projects, ascending (listing order). */
export function projectPositions(filters: FilterIndex, projects: readonly string[]): Positions {
  return namedList(filters, projects).positions;
}

/** The records of the projects, each scoring `score`. */
export function projectPostings(filters: FilterIndex, projects: readonly string[], score: number): Postings {
  const list = namedList(filters, projects);
  let postings = list.scored.get(score);
  if (!postings) {
    postings = constantPostings(list.positions, score);
    if (list.scored.size >= KEPT_SCORES) list.scored.delete(list.scored.keys().next().value!);
    list.scored.set(score, postings);
  }
  return postings;
}

function namedList(filters: FilterIndex, projects: readonly string[]): NamedList {
  let kept = keptBySnapshot.get(filters);
  if (!kept) {
    kept = new RecentlyUsed(KEPT_ENTRIES);
    keptBySnapshot.set(filters, kept);
  }
  return kept.use(projects.join('\n'), () => {
    const positions = union(projects.map((project) => filters.project(project)));
    // Each list counts its positions and room for KEPT_SCORES score lists as long.
    return { value: { positions, scored: new Map() }, weight: positions.length * (1 + KEPT_SCORES) };
  });
}

/**
 * Postings of records that all score the same. Their highest is the score as a float32 holds it, as every
 * posting does: the score asked for may be a rounding above or below it, and a ceiling below what records
 * score made a question whose best record meets every term at its ceiling rank every record again.
 */
function constantPostings(docs: Positions, score: number): Postings {
  const scores = new Float32Array(docs.length).fill(score);
  return {
    docs,
    scores,
    blockMax: new Float32Array(Math.ceil(docs.length / BLOCK)).fill(score),
    maxScore: docs.length > 0 ? scores[0]! : 0,
  };
}
