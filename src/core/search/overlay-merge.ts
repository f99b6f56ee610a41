// When and how a snapshot's overlay index (overlay-index.ts) becomes a base again. Each change re-tokenises
// the overlay's records and every query rescores the words it reads, so once the overlay holds more than a
// small share of the records (a baseline brings thousands at once) the base and the overlay are merged into
// one index, with its scores computed once, in a worker thread: the snapshot being served keeps serving,
// untouched, and an equal snapshot carrying the merged index takes its place (SnapshotStore). Changes served
// while the merge ran are not lost on it: the snapshot then served is rebased onto the merged index, its
// overlay only the records changed since the merge began (a merge that was dropped whenever a change came
// first never landed while upstream kept changing, and the overlay, with the memory of every try, grew).
import { Worker } from 'node:worker_threads';
import { Derived } from '../derived.js';
import type { IdIndex } from '../id-index.js';
import type { Snapshot } from '../snapshot.js';
import type { MergeInput } from './merge-worker.js';
import { OverlayTextIndex } from './overlay-index.js';
import type { SearchIndex } from './search-index.js';
import { layeredIndexSteps } from './search-layers.js';
import { StoredTextIndex, type TextIndexData } from './text-index.js';
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
 * The snapshot with its overlay merged into a new base index (in a worker thread), its vocabulary built:
 * the same records and answers, ready to take the snapshot's place. Undefined when it has no overlay.
 */
export async function mergeOverlay(snapshot: Snapshot): Promise<Snapshot | undefined> {
  const index = await snapshot.search.prepare();
  if (!(index.text instanceof OverlayTextIndex)) return undefined;
  const { base, overlay, ...layout } = index.text.layout;
  const data = await inWorker({ ...layout, base: ownArrays(base.data), overlay: ownArrays(overlay.data) });
  const text = new StoredTextIndex(data);
  const merged: SearchIndex = { text, vocabulary: new Vocabulary(text), projects: index.projects };
  const search = new Derived(function* () {
    yield* merged.vocabulary.buildSteps();
    return merged;
  });
  await search.prepare();
  return Object.freeze({ ...snapshot, search });
}

/** A merged index, and the records it holds: the ids (by number) and content hashes of the snapshot merged. */
export interface MergedBase {
  readonly index: SearchIndex;
  readonly ids: IdIndex;
  readonly hashes: BigUint64Array;
}

/** What a merged snapshot (mergeOverlay's) offers the snapshots that changes made meanwhile. */
export function mergedBase(merged: Snapshot): MergedBase {
  return { index: merged.search.get(), ids: merged.ids, hashes: merged.hashes.get().column };
}

/** Whether the snapshot's built index reads the base already (is it, or layers an overlay on it). */
function readsBase(snapshot: Snapshot, base: MergedBase): boolean {
  const { text } = snapshot.search.get();
  return text === base.index.text || (text instanceof OverlayTextIndex && text.layout.base === base.index.text);
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
  const search = new Derived(() => layeredIndexSteps(base.index, from, table, texts, aliases));
  await search.prepare();
  return Object.freeze({ ...snapshot, search });
}

function inWorker(input: MergeInput): Promise<TextIndexData> {
  // Run from the TypeScript sources (tests, tsx), the worker is the .ts file, loaded the way they are.
  const fromSources = import.meta.url.endsWith('.ts');
  const worker = new Worker(new URL(fromSources ? './merge-worker.ts' : './merge-worker.js', import.meta.url), {
    workerData: input,
    ...(fromSources ? { execArgv: ['--import', 'tsx'] } : {}),
  });
  return new Promise((resolve, reject) => {
    worker.once('message', (data: TextIndexData) => {
      resolve(data);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`index merge worker exited with code ${code}`)));
  });
}

/**
 * The index's arrays, each with a buffer of its own: an index read from a snapshot file views one buffer
 * holding the whole file, which a transfer to the worker would otherwise copy whole.
 */
function ownArrays(data: TextIndexData): TextIndexData {
  const own = <T extends Uint16Array | Uint32Array | Int32Array | Float32Array>(array: T): T =>
    (array.byteLength === array.buffer.byteLength ? array : array.slice()) as T;
  return {
    words: data.words,
    starts: own(data.starts),
    docs: own(data.docs),
    scores: own(data.scores),
    blockStarts: own(data.blockStarts),
    blockMax: own(data.blockMax),
    counts: own(data.counts),
    projectLengths: own(data.projectLengths),
    summaryLengths: own(data.summaryLengths),
  };
}
