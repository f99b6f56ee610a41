// The search index of a snapshot made by a change: the previous snapshot's base index, masked where the
// change touched it, beside an overlay index of every record not in the base (overlay-index.ts). Costs the
// overlay's records (tokenised again) and a pass over typed columns; never the corpus's words.
import type { RecordTable } from '../record-table.js';
import type { TextStore } from '../text-store.js';
import { OverlayTextIndex } from './overlay-index.js';
import { buildProjectIndex } from './project-index.js';
import type { SearchIndex } from './search-index.js';
import { type CountedIndex, StoredTextIndex, type TextIndex, textIndexSteps } from './text-index.js';
import { Vocabulary } from './vocabulary.js';

/**
 * The index after a change, from the previous snapshot's text index: `from[position]` is where each record
 * was in the previous snapshot, -1 for a record the change brought.
 */
export function* layeredIndexSteps(
  previous: TextIndex | CountedIndex,
  from: Int32Array,
  table: RecordTable,
  texts: TextStore,
  aliases: ReadonlyMap<string, readonly string[]>,
): Generator<void, SearchIndex, void> {
  const layers = previous instanceof OverlayTextIndex ? previous.layout : undefined;
  const base = layers?.base ?? (previous as CountedIndex);
  const size = from.length;
  const baseOf = new Int32Array(size);
  const positionOf = new Int32Array(base.data.projectLengths.length).fill(-1);
  let overlayCount = 0;
  for (let position = 0; position < size; position++) {
    const before = from[position]!;
    const doc = before < 0 ? -1 : layers ? layers.baseOf[before]! : before;
    baseOf[position] = doc;
    if (doc >= 0) positionOf[doc] = position;
    else overlayCount++;
  }
  const overlayPositions = new Int32Array(overlayCount);
  const totals: [number, number] = [0, 0];
  for (let position = 0, n = 0; position < size; position++) {
    const doc = baseOf[position]!;
    if (doc < 0) overlayPositions[n++] = position;
    else {
      totals[0] += base.data.projectLengths[doc]!;
      totals[1] += base.data.summaryLengths[doc]!;
    }
  }
  yield;
  const overlayData = yield* textIndexSteps(overlayCount, (doc) => {
    const position = overlayPositions[doc]!;
    return { project: table.projectNames[table.projectOf[position]!]!, summary: texts.summary(position) ?? '' };
  });
  for (let doc = 0; doc < overlayCount; doc++) {
    totals[0] += overlayData.projectLengths[doc]!;
    totals[1] += overlayData.summaryLengths[doc]!;
  }
  const text = new OverlayTextIndex({ base, baseOf, positionOf, overlay: new StoredTextIndex(overlayData), overlayPositions, totals });
  yield;
  // The vocabulary's trees are built the first time a letter is looked up: a change pays for none.
  return { text, vocabulary: new Vocabulary(text), projects: buildProjectIndex(table.projectNames, aliases) };
}
