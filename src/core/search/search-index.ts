// The ranked-search structures of one snapshot: the scored word index over summary and project, its
// vocabulary for prefix and typo look-ups, and the project names. The snapshot owns its index (see
// Snapshot.search), so a reload gets a fresh one and the old one is collected with its snapshot.
import type { RecordEntry } from '../record-entry.js';
import { buildProjectIndex, type ProjectIndex } from './project-index.js';
import { type Postings, textIndexSteps } from './text-index.js';
import { Vocabulary } from './vocabulary.js';

export interface SearchIndex {
  /** Every record in listing order: a position here is the record's key and its tie-break. */
  readonly entries: readonly RecordEntry[];
  /** The year of each record's identifier, by position: filters read it on every candidate. */
  readonly years: Uint16Array;
  /** Positions of each project's records, ascending (newest first). */
  readonly positionsByProject: ReadonlyMap<string, readonly number[]>;
  readonly postings: ReadonlyMap<string, Postings>;
  readonly vocabulary: Vocabulary;
  readonly projects: ProjectIndex;
}

/** Builds the index of records given in listing order, pausing between steps (see Derived). */
export function* searchIndexSteps(entries: readonly RecordEntry[]): Generator<void, SearchIndex, void> {
  const positionsByProject = new Map<string, number[]>();
  entries.forEach((entry, position) => {
    const positions = positionsByProject.get(entry.record.project);
    if (positions) positions.push(position);
    else positionsByProject.set(entry.record.project, [position]);
  });
  const postings = yield* textIndexSteps(entries.map((entry) => ({ project: entry.record.project, summary: entry.summary ?? '' })));
  return {
    entries,
    years: Uint16Array.from(entries, (entry) => Number(entry.record.id.slice(4, 8))),
    positionsByProject,
    postings,
    vocabulary: new Vocabulary(new Map([...postings].map(([word, list]) => [word, list.positions.length]))),
    projects: buildProjectIndex(positionsByProject.keys()),
  };
}
