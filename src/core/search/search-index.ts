// The ranked-search structures of one snapshot: the scored word index over summary and project, its
// vocabulary for prefix and typo look-ups, and the project names. Built on first use and kept as long
// as the snapshot lives, so a reload (a new snapshot object) gets a fresh index and the old one is
// collected with its snapshot.
import type { RecordEntry, Snapshot } from '../snapshot.js';
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

const built = new WeakMap<Snapshot, SearchIndex>();
const preparing = new WeakMap<Snapshot, Promise<SearchIndex>>();

/** The snapshot's index, built here and now if no one built it yet. */
export function searchIndexOf(snapshot: Snapshot): SearchIndex {
  let index = built.get(snapshot);
  if (!index) {
    const steps = searchIndexSteps(snapshot);
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) {
        index = step.value;
        break;
      }
    }
    built.set(snapshot, index);
  }
  return index;
}

/**
 * Builds the snapshot's index in steps, giving the event loop back between them, so that a server can
 * answer other requests while a large catalog is indexed. Resolves at once when the index exists.
 */
export function prepareSearchIndex(snapshot: Snapshot): Promise<SearchIndex> {
  const ready = built.get(snapshot);
  if (ready) return Promise.resolve(ready);
  let pending = preparing.get(snapshot);
  if (!pending) {
    pending = (async () => {
      const steps = searchIndexSteps(snapshot);
      for (let step = steps.next(); ; step = steps.next()) {
        if (step.done) {
          built.set(snapshot, step.value);
          preparing.delete(snapshot);
          return step.value;
        }
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    })();
    preparing.set(snapshot, pending);
  }
  return pending;
}

function* searchIndexSteps(snapshot: Snapshot): Generator<void, SearchIndex, void> {
  const entries = snapshot.select({}).map((record) => snapshot.get(record.id)!);
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
