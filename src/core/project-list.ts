// The projects operation: the snapshot's projects in name order, or those a text names (the start of a name
// or alias in any case, a typo or a run-together spelling of one), cursor-paged; and the projects closest
// to a name no record is filed under, for the agents' answers to an empty filtered list.
import { PAGE_LIMIT, type ProjectPage, type ProjectSummary, type ProjectsQuery } from '../contract/index.js';
import type { CursorCodec } from './cursor.js';
import { partitionPoint } from './partition-point.js';
import { projectKeys } from './search/project-index.js';
import { boundQuery, MAX_TERMS } from './search/query-understanding.js';
import { words } from './search/words.js';
import type { Snapshot } from './snapshot.js';

/**
 * How much of the last name a cursor keeps, in UTF-8 bytes, so that a cursor stays within its maximum length
 * whatever the names: a page resumes after the names that begin alike up to there.
 */
const CURSOR_NAME_BYTES = 96;

export async function listProjects(snapshot: Snapshot, query: ProjectsQuery, cursors: CursorCodec): Promise<ProjectPage> {
  const limit = query.limit ?? PAGE_LIMIT.default;
  const q = query.q ?? null;
  const { summaries } = snapshot.projects.get();
  const matching = q === null ? summaries : inNameOrder(summaries, await projectsNamedBy(snapshot, q));
  const start = query.cursor === undefined ? 0 : firstAfter(matching, cursors.decodeName(query.cursor, q));
  const projects = matching.slice(start, start + limit);
  const last = projects.at(-1);
  return {
    lastVerified: snapshot.lastVerified,
    projects,
    pagination: {
      limit,
      returned: projects.length,
      total: matching.length,
      nextCursor: last && start + limit < matching.length ? cursors.encodeName(cursorKey(last.name), q) : null,
    },
  };
}

/**
 * The projects a text or one of its words names, most records first: what an agent is pointed at when its
 * project, or its question, matches nothing. Only as much of the text is read as a search reads (its
 * first 512 characters, its first 32 distinct words), so a long message costs what a query does.
 */
export async function closestProjects(snapshot: Snapshot, text: string, count: number): Promise<string[]> {
  const table = snapshot.projects.get();
  const read = boundQuery(text);
  const named = new Set<number>();
  for (const part of [read, ...new Set(words(read))].slice(0, 1 + MAX_TERMS)) {
    for (const position of await projectsNamedBy(snapshot, part)) named.add(position);
  }
  // The `count` best ranked, kept in order as the names go by: a short word can name thousands.
  const best: number[] = [];
  for (const position of named) {
    const rank = table.rankOf(position);
    if (best.length === count && rank >= table.rankOf(best[count - 1]!)) continue;
    const at = best.findIndex((other) => table.rankOf(other) > rank);
    best.splice(at < 0 ? best.length : at, 0, position);
    best.length = Math.min(best.length, count);
  }
  return best.map((position) => table.summaries[position]!.name);
}

/**
 * Positions (in the project table) of the projects whose name or an alias begins with the text (any
 * case), or that the search index finds by it.
 */
async function projectsNamedBy(snapshot: Snapshot, text: string): Promise<Set<number>> {
  const table = snapshot.projects.get();
  const index = (await snapshot.search.prepare()).projects;
  const found = table.startingWith(text);
  const add = (name: string) => {
    const position = table.positionOf(name);
    if (position !== undefined) found.add(position);
  };
  for (const key of projectKeys(text)) {
    for (const name of index.named(key)) add(name);
    for (const name of index.approximate(key.join(''))?.projects ?? []) add(name);
  }
  return found;
}

/** The projects at these positions, in the table's order: name order. */
function inNameOrder(summaries: readonly ProjectSummary[], positions: Set<number>): ProjectSummary[] {
  return [...positions].sort((a, b) => a - b).map((position) => summaries[position]!);
}

/** The start of a name a cursor keeps. Truncating keeps the order of names, so pages can resume by it. */
function cursorKey(name: string): string {
  let key = name;
  while (Buffer.byteLength(key) > CURSOR_NAME_BYTES) key = key.slice(0, -1);
  return key;
}

/** Index of the first project after the cursor's key, by bisection (the projects are in name order). */
function firstAfter(projects: readonly ProjectSummary[], key: string): number {
  return partitionPoint(0, projects.length, (i) => cursorKey(projects[i]!.name) <= key);
}
