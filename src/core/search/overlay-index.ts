// The word index of a snapshot made by changes: layers of counted postings, each read through a mask of the
// records changed or removed since it was made, and on top an overlay, the records no layer holds,
// tokenised by the change. The first layer is the base (built whole, or merged from all layers); a second
// one, when there is one, holds what earlier overlays were merged into (overlay-merge.ts), so that an
// overlay grown large costs a merge of the changed records, not of the corpus. Scores are not read from the
// layers: BM25+ depends on the record count, the average field lengths and each word's record frequency,
// which every change moves, so a word's postings are scored again from what the layers keep of them (each
// posting's word counts, each record's field lengths) with the statistics of the records the snapshot
// holds. The arithmetic is text-index.ts's own, in the same order, so every score (a float32) is the one a
// full rebuild computes, and ranking after any number of changes is the rebuild's. A word's rescored
// postings are kept for the next queries (a few words).
import { settled } from '../derived.js';
import {
  averageLength,
  blockMaxima,
  type CountedData,
  CountedIndex,
  fieldScore,
  highestOf,
  inverseFrequency,
  type Postings,
  StoredTextIndex,
  type TextIndex,
  textIndexSteps,
} from './text-index.js';

/** Some of a snapshot's records in an index, and where each of them is now. */
export interface Layer {
  readonly index: CountedIndex;
  /**
   * The position of each of the index's records, or -1 where masked (changed or removed since). Ascending
   * where not masked: an index numbers its records in listing order, which changes never reorder.
   */
  readonly positionOf: Int32Array;
}

/** Where the records of a snapshot are in its layers. */
export interface OverlayLayout {
  /** The base first, then at most one merged layer; the last is the overlay, its records all live. */
  readonly layers: readonly Layer[];
  /** Each position's layer... */
  readonly layerOf: Uint8Array;
  /** ...and its record in that layer's index. */
  readonly docOf: Int32Array;
  /** Project and summary lengths summed over the snapshot's records. */
  readonly totals: readonly [number, number];
}

/** A word's postings in position order with their word counts, scored as a rebuild would. */
interface Scored {
  readonly docs: Int32Array;
  readonly scores: Float32Array;
  readonly counts: Uint16Array;
}

/** Where postings are written: with their scores, or (a merge's) without. */
type Written = Omit<Scored, 'scores'> & { readonly scores?: Float32Array };

/** Rescored words kept per snapshot: a query reads a handful, and a common word's list is a few megabytes. */
const KEPT_WORDS = 64;

export class OverlayTextIndex implements TextIndex {
  #words: readonly string[] | undefined;
  readonly #frequencies = new Map<string, number>();
  readonly #postings = new Map<string, Postings | undefined>();

  constructor(readonly layout: OverlayLayout) {}

  /** Records in the overlay: past a threshold it is merged into a layer (overlay-merge.ts). */
  get overlaySize(): number {
    return this.layout.layers.at(-1)!.positionOf.length;
  }

  /** Records not in the base: past a share of all, a merge makes a new base. */
  get beyondBase(): number {
    const { layerOf } = this.layout;
    let count = 0;
    for (let position = 0; position < layerOf.length; position++) if (layerOf[position]! > 0) count++;
    return count;
  }

  /** The words some record of the snapshot holds, sorted as a built index sorts them. */
  get words(): readonly string[] {
    this.#words ??= liveWords(this.layout.layers);
    return this.#words;
  }

  frequency(word: string): number {
    let frequency = this.#frequencies.get(word);
    if (frequency === undefined) {
      frequency = planWord(this.layout.layers, sizeOf(this.layout), word)?.total ?? 0;
      this.#frequencies.set(word, frequency);
    }
    return frequency;
  }

  postings(word: string): Postings | undefined {
    if (this.#postings.has(word)) return this.#postings.get(word);
    const scored = scoreWord(this.layout, word);
    let postings: Postings | undefined;
    if (scored) {
      const { blockMax } = blockMaxima(Uint32Array.of(0, scored.docs.length), scored.scores);
      postings = { docs: scored.docs, scores: scored.scores, blockMax, maxScore: highestOf(blockMax) };
    }
    if (this.#postings.size >= KEPT_WORDS) this.#postings.delete(this.#postings.keys().next().value!);
    this.#postings.set(word, postings);
    return postings;
  }
}

/** The record count of the layout. */
function sizeOf(layout: OverlayLayout): number {
  return layout.layerOf.length;
}

/** Whether some unmasked record of the layer holds its word numbered `term`. */
function liveIn({ index, positionOf }: Layer, term: number): boolean {
  const { starts, docs } = index.data;
  for (let i = starts[term]!; i < starts[term + 1]!; i++) if (positionOf[docs[i]!]! >= 0) return true;
  return false;
}

/** The words some unmasked record of the layers holds, in sorted order. */
function liveWords(layers: readonly Layer[]): string[] {
  const lists = layers.map((layer) => layer.index.words);
  const at = layers.map(() => 0);
  const words: string[] = [];
  for (;;) {
    let least: string | undefined;
    for (let k = 0; k < lists.length; k++) {
      const word = lists[k]![at[k]!];
      if (word !== undefined && (least === undefined || word < least)) least = word;
    }
    if (least === undefined) return words;
    let live = false;
    for (let k = 0; k < lists.length; k++) {
      if (lists[k]![at[k]!] !== least) continue;
      live ||= liveIn(layers[k]!, at[k]!);
      at[k]!++;
    }
    if (live) words.push(least);
  }
}

/**
 * Where a word's postings over the snapshot's records come from, and their statistics: the word's range in
 * each layer, how many live postings it has in all, its record frequency in each field as an idf.
 */
interface WordPlan {
  readonly from: readonly number[];
  readonly to: readonly number[];
  readonly total: number;
  readonly idf: readonly [number, number];
}

/** The word's plan in the layers of a snapshot of `size` records; undefined when no live record holds it. */
function planWord(layers: readonly Layer[], size: number, word: string): WordPlan | undefined {
  const from: number[] = [];
  const to: number[] = [];
  const frequency = [0, 0];
  let total = 0;
  for (const { index, positionOf } of layers) {
    const term = index.term(word);
    const { starts, docs, counts } = index.data;
    const start = term === undefined ? 0 : starts[term]!;
    const end = term === undefined ? 0 : starts[term + 1]!;
    from.push(start);
    to.push(end);
    for (let i = start; i < end; i++) {
      if (positionOf[docs[i]!]! < 0) continue;
      total++;
      if (counts[i]! >> 8) frequency[0]!++;
      if (counts[i]! & 0xff) frequency[1]!++;
    }
  }
  if (total === 0) return undefined;
  return { from, to, total, idf: [inverseFrequency(size, frequency[0]!), inverseFrequency(size, frequency[1]!)] };
}

/** How postings are written: scored with a snapshot's averages, or renumbered for a merge. */
interface Writing {
  readonly averages?: readonly [number, number];
  /** A merged layer's record number of each position (absent: the position itself). */
  readonly numberOf?: Int32Array;
}

/**
 * Writes the planned word's postings in position order, each scored exactly as textIndexSteps scores it
 * when `into` takes scores, into `into` from `at` on (plan.total of them).
 */
function writeWord(layers: readonly Layer[], plan: WordPlan, into: Written, at: number, { averages, numberOf }: Writing): void {
  const { idf } = plan;
  const datas = layers.map((layer) => layer.index.data);
  const masks = layers.map((layer) => layer.positionOf);
  const heads = Int32Array.from(plan.from);
  const ends = Int32Array.from(plan.to);
  // Each layer's next live posting's position (Infinity past its end): the least of a few numbers is the next posting.
  const next = new Float64Array(layers.length);
  const advance = (k: number, from: number) => {
    const { docs } = datas[k]!;
    const mask = masks[k]!;
    const end = ends[k]!;
    let i = from;
    let position = Number.POSITIVE_INFINITY;
    for (; i < end; i++) {
      const here = mask[docs[i]!]!;
      if (here >= 0) {
        position = here;
        break;
      }
    }
    heads[k] = i;
    next[k] = position;
  };
  for (let k = 0; k < layers.length; k++) advance(k, heads[k]!);
  for (let n = at; n < at + plan.total; n++) {
    let layer = 0;
    let position = next[0]!;
    for (let k = 1; k < next.length; k++) {
      if (next[k]! < position) {
        position = next[k]!;
        layer = k;
      }
    }
    const data = datas[layer]!;
    const from = heads[layer]!;
    const doc = data.docs[from]!;
    into.docs[n] = numberOf ? numberOf[position]! : position;
    const count = data.counts[from]!;
    into.counts[n] = count;
    if (into.scores && averages) into.scores[n] = postingScore(count, idf, data.projectLengths[doc]!, data.summaryLengths[doc]!, averages);
    advance(layer, from + 1);
  }
}

/** A word's postings over the snapshot's records, in position order, scored with the snapshot's statistics. */
function scoreWord(layout: OverlayLayout, word: string): Scored | undefined {
  const size = sizeOf(layout);
  const plan = planWord(layout.layers, size, word);
  if (plan === undefined) return undefined;
  const scored = { docs: new Int32Array(plan.total), scores: new Float32Array(plan.total), counts: new Uint16Array(plan.total) };
  const { totals } = layout;
  writeWord(layout.layers, plan, scored, 0, { averages: [averageLength(totals[0], size), averageLength(totals[1], size)] });
  return scored;
}

/** A posting's score as a build stores it: the project's score as float32, plus the summary's. */
function postingScore(
  count: number,
  idf: readonly [number, number],
  projectLength: number,
  summaryLength: number,
  averages: readonly [number, number],
): number {
  const inProject = count >> 8;
  const inSummary = count & 0xff;
  const project = inProject > 0 ? Math.fround(fieldScore(0, idf[0], inProject, projectLength, averages[0])) : 0;
  if (inSummary === 0) return project;
  const summary = fieldScore(1, idf[1], inSummary, summaryLength, averages[1]);
  return Math.fround(inProject > 0 ? project + summary : summary);
}

/** Postings written (or counted) between two pauses of a merge: a few milliseconds' work. */
const POSTINGS_PER_STEP = 1 << 16;

/**
 * The layout with its layers from `first` on (the overlay's included) merged into one, in steps on the
 * thread that serves: every live word's postings of those layers laid out in position order with their word
 * counts, the records numbered in listing order. Merged from the first layer on, that is the index a
 * rebuild makes, less the scores: they would be read only until the next change, which scores every word
 * again. Into arrays allocated once at their final size: no copy of a layer, no array per word, and no
 * worker thread whose malloc arena (the merged arrays allocated in it and handed over) stayed resident,
 * 64 MB a heap, for good.
 */
export function* mergeLayersSteps(layout: OverlayLayout, first: number): Generator<void, OverlayLayout, void> {
  const layers = layout.layers.slice(first);
  const words = liveWords(layers);
  yield;
  const { layerOf, docOf } = layout;
  const size = sizeOf(layout);
  // The merged records, in listing order, and each one's number in the merged index.
  const numberOf = new Int32Array(size).fill(-1);
  let merging = 0;
  for (let position = 0; position < size; position++) if (layerOf[position]! >= first) numberOf[position] = merging++;
  const positions = new Int32Array(merging);
  for (let position = 0; position < size; position++) if (numberOf[position]! >= 0) positions[numberOf[position]!] = position;
  let total = 0;
  for (const { index, positionOf } of layers) {
    const { docs } = index.data;
    for (let from = 0; from < docs.length; from += POSTINGS_PER_STEP) {
      for (let i = from; i < Math.min(from + POSTINGS_PER_STEP, docs.length); i++) if (positionOf[docs[i]!]! >= 0) total++;
      yield;
    }
  }
  const starts = new Uint32Array(words.length + 1);
  const merged: Written = { docs: new Int32Array(total), counts: new Uint16Array(total) };
  let sinceStep = 0;
  for (let t = 0; t < words.length; t++) {
    const plan = planWord(layers, size, words[t]!)!;
    writeWord(layers, plan, merged, starts[t]!, { numberOf });
    starts[t + 1] = starts[t]! + plan.total;
    // A word costs its look-ups beside its postings.
    sinceStep += plan.total + 16;
    if (sinceStep >= POSTINGS_PER_STEP) {
      sinceStep = 0;
      yield;
    }
  }
  const projectLengths = new Uint32Array(merging);
  const summaryLengths = new Uint32Array(merging);
  for (let number = 0; number < merging; number++) {
    const position = positions[number]!;
    const { data } = layout.layers[layerOf[position]!]!.index;
    projectLengths[number] = data.projectLengths[docOf[position]!]!;
    summaryLengths[number] = data.summaryLengths[docOf[position]!]!;
  }
  yield;
  const data: CountedData = { words, starts, docs: merged.docs, counts: merged.counts, projectLengths, summaryLengths };
  const kept = layout.layers.slice(0, first);
  const mergedLayer: Layer = { index: new CountedIndex(data), positionOf: positions };
  const mergedLayerOf = layerOf.map((layer) => Math.min(layer, first));
  const mergedDocOf = docOf.map((doc, position) => (layerOf[position]! >= first ? numberOf[position]! : doc));
  return {
    layers: [...kept, mergedLayer, { index: emptyIndex(), positionOf: new Int32Array(0) }],
    layerOf: mergedLayerOf,
    docOf: mergedDocOf,
    totals: layout.totals,
  };
}

/** An index of no records: the overlay of a snapshot whose records its layers hold. */
function emptyIndex(): StoredTextIndex {
  return new StoredTextIndex(settled(textIndexSteps(0, () => ({ project: '', summary: '' }))));
}
