// The ranked-search structures of one snapshot: the scored word index over project and summary, its
// vocabulary for prefix and typo look-ups, and the project names with their other spellings. The
// snapshot owns its index (see Snapshot.search), so a reload gets a fresh one and the old one is
// collected with its snapshot. A snapshot file carries a built word index (read when first needed); otherwise,
// or when it is damaged, it is built here.
import type { RecordTable } from '../record-table.js';
import type { TextStore } from '../text-store.js';
import { buildProjectIndex, type ProjectIndex } from './project-index.js';
import { StoredTextIndex, type TextIndex, type TextIndexData, textIndexSteps } from './text-index.js';
import { Vocabulary } from './vocabulary.js';

export interface SearchIndex {
  readonly text: TextIndex;
  readonly vocabulary: Vocabulary;
  readonly projects: ProjectIndex;
}

/** Builds (or completes) the index of a snapshot, pausing between steps (see Derived). */
export function* searchIndexSteps(
  table: RecordTable,
  texts: TextStore,
  aliases: ReadonlyMap<string, readonly string[]>,
  stored: (() => Generator<void, TextIndexData | undefined, void>) | undefined,
): Generator<void, SearchIndex, void> {
  const data =
    (stored && (yield* stored())) ??
    (yield* textIndexSteps(table.size, (position) => ({
      project: table.projectNames[table.projectOf[position]!]!,
      summary: texts.summary(position) ?? '',
    })));
  const text = new StoredTextIndex(data);
  yield;
  const vocabulary = new Vocabulary(text);
  yield* vocabulary.buildSteps();
  return { text, vocabulary, projects: buildProjectIndex(table.projectNames, aliases) };
}
