// The search index of a snapshot made by a change, or rebased on a merge: the layers of counted postings
// it keeps, each masked where the change touched it, beside an overlay index of every record no layer holds
// (overlay-index.ts). Costs the overlay's records (tokenised again) and a pass over typed columns; never the
// corpus's words.
import type { RecordTable } from '../record-table.js';
import type { TextStore } from '../text-store.js';
import { type Layer, OverlayTextIndex } from './overlay-index.js';
import { buildProjectIndex } from './project-index.js';
import type { SearchIndex } from './search-index.js';
import { type CountedIndex, StoredTextIndex, type TextIndex, textIndexSteps } from './text-index.js';
import { Vocabulary } from './vocabulary.js';

/**
 * The index after a change, from the previous snapshot's text index: `from[position]` is where each record
 * was in the previous snapshot, -1 for a record the change brought. The previous overlay's records are
 * tokenised again with the change's, into the new overlay. A built index is kept as a layer without its
 * scores, which go with the snapshot it served (unless they are views of a checkpoint's bytes).
 */
export function* layeredIndexSteps(
  previous: TextIndex,
  from: Int32Array,
  table: RecordTable,
  texts: TextStore,
  aliases: ReadonlyMap<string, readonly string[]>,
): Generator<void, SearchIndex, void> {
  const layout = previous instanceof OverlayTextIndex ? previous.layout : undefined;
  const kept = layout ? layout.layers.slice(0, -1).map((layer) => layer.index) : [(previous as StoredTextIndex).counted()];
  const size = from.length;
  const layerOf = new Uint8Array(size);
  const docOf = new Int32Array(size);
  for (let position = 0; position < size; position++) {
    const before = from[position]!;
    const layer = before < 0 ? kept.length : layout ? layout.layerOf[before]! : 0;
    layerOf[position] = layer;
    docOf[position] = layer < kept.length ? (layout ? layout.docOf[before]! : before) : -1;
  }
  return yield* layeredSteps(kept, layerOf, docOf, table, texts, aliases);
}

/**
 * The index of a snapshot whose records are in `kept` where `layerOf` names one of them (at `docOf` in it),
 * and in a new overlay where it names none (kept.length).
 */
export function* layeredSteps(
  kept: readonly CountedIndex[],
  layerOf: Uint8Array,
  docOf: Int32Array,
  table: RecordTable,
  texts: TextStore,
  aliases: ReadonlyMap<string, readonly string[]>,
): Generator<void, SearchIndex, void> {
  const size = layerOf.length;
  const positionOf = kept.map((index) => new Int32Array(index.data.projectLengths.length).fill(-1));
  const totals: [number, number] = [0, 0];
  let overlayCount = 0;
  for (let position = 0; position < size; position++) {
    const layer = layerOf[position]!;
    if (layer === kept.length) {
      overlayCount++;
      continue;
    }
    const doc = docOf[position]!;
    positionOf[layer]![doc] = position;
    const { data } = kept[layer]!;
    totals[0] += data.projectLengths[doc]!;
    totals[1] += data.summaryLengths[doc]!;
  }
  const overlayPositions = new Int32Array(overlayCount);
  for (let position = 0, n = 0; position < size; position++) {
    if (layerOf[position] !== kept.length) continue;
    docOf[position] = n;
    overlayPositions[n++] = position;
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
  const layers: Layer[] = kept.map((index, k) => ({ index, positionOf: positionOf[k]! }));
  layers.push({ index: new StoredTextIndex(overlayData), positionOf: overlayPositions });
  const text = new OverlayTextIndex({ layers, layerOf, docOf, totals });
  yield;
  // The vocabulary's trees are built the first time a letter is looked up: a change pays for none.
  return { text, vocabulary: new Vocabulary(text), projects: buildProjectIndex(table.projectNames, aliases) };
}
