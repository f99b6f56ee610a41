// When and how a snapshot's overlay index (overlay-index.ts) becomes a base again. Each change re-tokenises
// the overlay's records and every query rescores the words it reads, so once the overlay holds more than a
// small share of the records (a baseline brings thousands at once) the base and the overlay are merged into
// one index, with its scores computed once, in steps between requests: the snapshot being served keeps
// serving, untouched, and an equal snapshot carrying the merged index takes its place (SnapshotStore). Changes served
// while the merge ran are not lost on it: the snapshot then served is rebased onto the merged index, its
// overlay only the records changed since the merge began (a merge that was dropped whenever a change came
// first never landed while upstream kept changing, and the overlay, with the memory of every try, grew).
import { Derived } from '../derived.js';
import type { IdIndex } from '../id-index.js';
import type { Snapshot } from '../snapshot.js';
import { mergeLayoutSteps, OverlayTextIndex, overAlone } from './overlay-index.js';
import type { SearchIndex } from './search-index.js';
import { layeredIndexSteps } from './search-layers.js';
import { CountedIndex } from './text-index.js';
import { Vocabulary } from './vocabulary.js';

/** The overlay is merged past this share of the records... */
const MERGE_SHARE = 0.02;
/** ...and never below this many, which cost a change about as much to tokenise as a merge would save. */
const MERGE_AT_LEAST = 2000;

/** Whether a snapshot's search index has an overlay worth merging now. */
export function overlayTooLarge(snapshot: Snapshot): boolean {
  if (!snapshot.search.built) return false;
  const { text } = snapshot.search.get();
  return text instanceof OverlayTextIndex && text.overlaySize > Math.max(MERGE_AT_LEAST, snapshot.size * MERGE_SHARE);
}

/**
 * The snapshot with its overlay merged into a new base index (in steps that give the event loop back), its
 * vocabulary built: the same records and answers, ready to take the snapshot's place. Undefined when it has
 * no overlay.
 */
export async function mergeOverlay(snapshot: Snapshot): Promise<Snapshot | undefined> {
  const index = await snapshot.search.prepare();
  if (!(index.text instanceof OverlayTextIndex)) return undefined;
  const { layout } = index.text;
  const search = new Derived(function* () {
    const text = overAlone(new CountedIndex(yield* mergeLayoutSteps(layout)), layout.totals);
    const merged: SearchIndex = { text, vocabulary: new Vocabulary(text), projects: index.projects };
    yield* merged.vocabulary.buildSteps();
    return merged;
  });
  await search.prepare();
  return Object.freeze({ ...snapshot, search });
}

/**
 * A merged index's text index, and the records it holds: the ids (by number) and content hashes of the
 * snapshot merged. The text index alone: what a rebase layers on. The merged snapshot's vocabulary (built
 * whole by the merge) and project index go with that snapshot once a change replaces it; kept here, they
 * stayed until the next merge, beside the served snapshot's own.
 */
export interface MergedBase {
  readonly text: CountedIndex;
  readonly ids: IdIndex;
  readonly hashes: BigUint64Array;
}

/** What a merged snapshot (mergeOverlay's) offers the snapshots that changes made meanwhile. */
export function mergedBase(merged: Snapshot): MergedBase {
  return { text: (merged.search.get().text as OverlayTextIndex).layout.base, ids: merged.ids, hashes: merged.hashes.get().column };
}

/** Whether the snapshot's built index reads the base already (is it, or layers an overlay on it). */
function readsBase(snapshot: Snapshot, base: MergedBase): boolean {
  const { text } = snapshot.search.get();
  return text instanceof OverlayTextIndex && text.layout.base === base.text;
}

/**
 * Whether `snapshot` can and should be rebased onto `base`: its index is built, on an older base, and its
 * ids are numbered as the base's (one chain of changes; a whole load starts another).
 */
export function wantsRebase(snapshot: Snapshot, base: MergedBase): boolean {
  return snapshot.ids.numbers === base.ids.numbers && snapshot.search.built && !readsBase(snapshot, base);
}

/**
 * The snapshot with its index layered on `base`: a record of the same number and content hash as in the
 * merged snapshot reads the base, any other is tokenised into the overlay, as a change's would be.
 */
export async function rebased(snapshot: Snapshot, base: MergedBase): Promise<Snapshot> {
  const { numberAt } = snapshot.ids;
  const { positions } = base.ids;
  const hashes = snapshot.hashes.get().column;
  const from = new Int32Array(snapshot.size);
  for (let position = 0; position < from.length; position++) {
    const number = numberAt[position]!;
    const before = number < positions.length ? positions[number]! : -1;
    from[position] = before >= 0 && base.hashes[before] === hashes[position] ? before : -1;
  }
  const { table, texts, aliases } = snapshot;
  const search = new Derived(() => layeredIndexSteps(base.text, from, table, texts, aliases));
  await search.prepare();
  return Object.freeze({ ...snapshot, search });
}
