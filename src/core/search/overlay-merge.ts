// When and how a snapshot's overlay (overlay-index.ts) is merged into a layer. Each change re-tokenises the
// overlay's records and every query rescores the words it reads, so once the overlay holds more than a small
// share of the records it is merged, with what an earlier merge made, into one layer beside the base: a
// merge of the changed records, not of the corpus (a merge of the whole index held a second one, 80 to 130
// MB at 340,000 records, beside the served one while it ran). Only when the records outside the base reach
// a larger share is everything merged into a new base. Merges run in steps between requests: the snapshot
// being served keeps serving, untouched, and an equal snapshot carrying the merged index takes its place
// (SnapshotStore). Changes served while the merge ran are not lost on it: the snapshot then served is
// rebased onto the merged layers, its overlay only the records changed since the merge began (a merge that
// was dropped whenever a change came first never landed while upstream kept changing, and the overlay,
// with the memory of every try, grew).
import { Derived } from '../derived.js';
import type { IdIndex } from '../id-index.js';
import type { Snapshot } from '../snapshot.js';
import { mergeLayersSteps, OverlayTextIndex } from './overlay-index.js';
import type { SearchIndex } from './search-index.js';
import { layeredSteps } from './search-layers.js';
import type { CountedIndex } from './text-index.js';
import { Vocabulary } from './vocabulary.js';

/** The overlay is merged past this share of the records... */
const MERGE_SHARE = 0.02;
/** ...and never below this many, which cost a change about as much to tokenise as a merge would save. */
const MERGE_AT_LEAST = 2000;
/**
 * Past this share of the records outside the base, a merge makes a new base: a query merges the base's
 * postings with the layer's, so the layer is kept well below the base's size.
 */
const BASE_SHARE = 0.25;

/** Whether a snapshot's search index has an overlay worth merging now. */
export function overlayTooLarge(snapshot: Snapshot): boolean {
  if (!snapshot.search.built) return false;
  const { text } = snapshot.search.get();
  return text instanceof OverlayTextIndex && text.overlaySize > Math.max(MERGE_AT_LEAST, snapshot.size * MERGE_SHARE);
}

/**
 * The snapshot with its overlay merged (in steps that give the event loop back), its vocabulary built: the
 * same records and answers, ready to take the snapshot's place. The overlay goes into the layer beside the
 * base, or everything into a new base once the records outside the base pass BASE_SHARE (or when `newBase`
 * says so). Undefined when it has no overlay.
 */
export async function mergeOverlay(snapshot: Snapshot, newBase?: boolean): Promise<Snapshot | undefined> {
  const index = await snapshot.search.prepare();
  if (!(index.text instanceof OverlayTextIndex)) return undefined;
  const { text } = index;
  const first = (newBase ?? text.beyondBase > snapshot.size * BASE_SHARE) ? 0 : 1;
  const search = new Derived(function* () {
    const merged = new OverlayTextIndex(yield* mergeLayersSteps(text.layout, first));
    const mergedIndex: SearchIndex = { text: merged, vocabulary: new Vocabulary(merged), projects: index.projects };
    yield* mergedIndex.vocabulary.buildSteps();
    return mergedIndex;
  });
  await search.prepare();
  return Object.freeze({ ...snapshot, search });
}

/**
 * A merged snapshot's layers, and the records they hold: each position's layer and record in it, and the
 * ids (by number) and content hashes of the snapshot merged. What a rebase layers on; the merged snapshot's
 * vocabulary (built whole by the merge) and project index go with that snapshot once a change replaces it
 * (kept here, they stayed until the next merge, beside the served snapshot's own).
 */
export interface MergedBase {
  readonly layers: readonly CountedIndex[];
  readonly layerOf: Uint8Array;
  readonly docOf: Int32Array;
  readonly ids: IdIndex;
  readonly hashes: BigUint64Array;
}

/** What a merged snapshot (mergeOverlay's) offers the snapshots that changes made meanwhile. */
export function mergedBase(merged: Snapshot): MergedBase {
  const { layers, layerOf, docOf } = (merged.search.get().text as OverlayTextIndex).layout;
  return {
    layers: layers.slice(0, -1).map((layer) => layer.index),
    layerOf,
    docOf,
    ids: merged.ids,
    hashes: merged.hashes.get().column,
  };
}

/** Whether the snapshot's built index reads the merged layers already (all its layers but its overlay). */
function readsBase(snapshot: Snapshot, base: MergedBase): boolean {
  const { text } = snapshot.search.get();
  if (!(text instanceof OverlayTextIndex)) return false;
  const { layers } = text.layout;
  return layers.length === base.layers.length + 1 && base.layers.every((index, k) => layers[k]!.index === index);
}

/**
 * Whether `snapshot` can and should be rebased onto `base`: its index is built, on older layers, and its
 * ids are numbered as the base's (one chain of changes; a whole load starts another).
 */
export function wantsRebase(snapshot: Snapshot, base: MergedBase): boolean {
  return snapshot.ids.numbers === base.ids.numbers && snapshot.search.built && !readsBase(snapshot, base);
}

/**
 * The snapshot with its index layered on `base`: a record of the same number and content hash as in the
 * merged snapshot reads the merged layers, any other is tokenised into the overlay, as a change's would be.
 */
export async function rebased(snapshot: Snapshot, base: MergedBase): Promise<Snapshot> {
  const { numberAt } = snapshot.ids;
  const { positions } = base.ids;
  const hashes = snapshot.hashes.get().column;
  const layerOf = new Uint8Array(snapshot.size).fill(base.layers.length);
  const docOf = new Int32Array(snapshot.size).fill(-1);
  for (let position = 0; position < layerOf.length; position++) {
    const number = numberAt[position]!;
    const before = number < positions.length ? positions[number]! : -1;
    if (before < 0 || base.hashes[before] !== hashes[position]) continue;
    layerOf[position] = base.layerOf[before]!;
    docOf[position] = base.docOf[before]!;
  }
  const { table, texts, aliases } = snapshot;
  const search = new Derived(() => layeredSteps(base.layers, layerOf, docOf, table, texts, aliases));
  await search.prepare();
  return Object.freeze({ ...snapshot, search });
}
