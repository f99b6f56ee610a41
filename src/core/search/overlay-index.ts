// The word index of a snapshot made by changes: the base index (built whole, or merged) read through a
// mask, beside a small index of the records the changes brought. Scores are not read from the base: BM25+
// depends on the record count, the average field lengths and each word's record frequency, which every
// change moves, so a word's postings are scored again from what the base keeps of them (each posting's word
// counts, each record's field lengths) with the statistics of the records the snapshot holds: the base's
// records less the masked ones, plus the overlay's. The arithmetic is text-index.ts's own, in the same
// order, so every score (a float32) is the one a full rebuild computes, and ranking after any number of
// changes is the rebuild's. A word's rescored postings are kept for the next queries (a few words).
import { settled } from '../derived.js';
import {
  averageLength,
  blockMaxima,
  type CountedData,
  type CountedIndex,
  fieldScore,
  highestOf,
  inverseFrequency,
  type Postings,
  StoredTextIndex,
  type TextIndex,
  textIndexSteps,
} from './text-index.js';

/** Where the records of a snapshot are in a base index and an overlay index. */
export interface OverlayLayout {
  readonly base: CountedIndex;
  /** The base record (its position when the base was built) of each position, or -1 for an overlay record. */
  readonly baseOf: Int32Array;
  /** The position of each base record, or -1 when masked (changed or removed since). */
  readonly positionOf: Int32Array;
  readonly overlay: StoredTextIndex;
  /** The position of each overlay record, ascending. */
  readonly overlayPositions: Int32Array;
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

  /** Records in the overlay: past a threshold it is merged into a new base (overlay-merge.ts). */
  get overlaySize(): number {
    return this.layout.overlayPositions.length;
  }

  /** The words some record of the snapshot holds, sorted as a built index sorts them. */
  get words(): readonly string[] {
    this.#words ??= liveWords(this.layout);
    return this.#words;
  }

  frequency(word: string): number {
    let frequency = this.#frequencies.get(word);
    if (frequency === undefined) {
      frequency = countLive(this.layout, word);
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
  return layout.baseOf.length;
}

/** How many of the snapshot's records hold the word. */
function countLive({ base, positionOf, overlay }: OverlayLayout, word: string): number {
  let count = overlay.frequency(word);
  const term = base.term(word);
  if (term === undefined) return count;
  const { starts, docs } = base.data;
  for (let i = starts[term]!; i < starts[term + 1]!; i++) if (positionOf[docs[i]!]! >= 0) count++;
  return count;
}

/** Whether some unmasked base record holds the base word numbered `term`. */
function liveInBase({ base, positionOf }: OverlayLayout, term: number): boolean {
  const { starts, docs } = base.data;
  for (let i = starts[term]!; i < starts[term + 1]!; i++) if (positionOf[docs[i]!]! >= 0) return true;
  return false;
}

/** The base's words some unmasked record holds, merged with the overlay's, in sorted order. */
function liveWords(layout: OverlayLayout): string[] {
  const baseWords = layout.base.words;
  const overlayWords = layout.overlay.words;
  const words: string[] = [];
  let i = 0;
  let j = 0;
  while (i < baseWords.length || j < overlayWords.length) {
    const a = baseWords[i];
    const b = overlayWords[j];
    if (b === undefined || (a !== undefined && a < b)) {
      if (liveInBase(layout, i)) words.push(a!);
      i++;
    } else {
      words.push(b);
      if (a === b) i++;
      j++;
    }
  }
  return words;
}

/**
 * Where a word's postings over the snapshot's records come from, and their statistics: the word's range in
 * the base and in the overlay, how many postings it has (live base ones plus the overlay's), its record
 * frequency in each field as an idf.
 */
interface WordPlan {
  readonly baseFrom: number;
  readonly baseTo: number;
  readonly overFrom: number;
  readonly overTo: number;
  readonly total: number;
  readonly idf: readonly [number, number];
}

/** The word's plan (first the record frequency in each field); undefined when no record holds it. */
function planWord(layout: OverlayLayout, word: string): WordPlan | undefined {
  const { base, positionOf, overlay } = layout;
  const size = sizeOf(layout);
  const baseTerm = base.term(word);
  const overlayTerm = overlay.term(word);
  const b = base.data;
  const o = overlay.data;
  const [baseFrom, baseTo] = baseTerm === undefined ? [0, 0] : [b.starts[baseTerm]!, b.starts[baseTerm + 1]!];
  const [overFrom, overTo] = overlayTerm === undefined ? [0, 0] : [o.starts[overlayTerm]!, o.starts[overlayTerm + 1]!];
  const frequency = [0, 0];
  let live = 0;
  for (let i = baseFrom; i < baseTo; i++) {
    if (positionOf[b.docs[i]!]! < 0) continue;
    live++;
    if (b.counts[i]! >> 8) frequency[0]!++;
    if (b.counts[i]! & 0xff) frequency[1]!++;
  }
  for (let i = overFrom; i < overTo; i++) {
    if (o.counts[i]! >> 8) frequency[0]!++;
    if (o.counts[i]! & 0xff) frequency[1]!++;
  }
  const total = live + overTo - overFrom;
  if (total === 0) return undefined;
  const idf = [inverseFrequency(size, frequency[0]!), inverseFrequency(size, frequency[1]!)] as const;
  return { baseFrom, baseTo, overFrom, overTo, total, idf };
}

/**
 * Writes the planned word's postings in position order, each scored exactly as textIndexSteps scores it
 * when `into` takes scores, into `into` from `at` on (plan.total of them).
 */
function writeWord(layout: OverlayLayout, plan: WordPlan, into: Written, at: number): void {
  const { base, positionOf, overlay, overlayPositions, totals } = layout;
  const size = sizeOf(layout);
  const b = base.data;
  const o = overlay.data;
  const { baseTo, overTo, total, idf } = plan;
  const averages = [averageLength(totals[0], size), averageLength(totals[1], size)] as const;
  let i = plan.baseFrom;
  let j = plan.overFrom;
  const nextBase = () => {
    while (i < baseTo && positionOf[b.docs[i]!]! < 0) i++;
  };
  nextBase();
  for (let n = at; n < at + total; n++) {
    const fromBase = j >= overTo || (i < baseTo && positionOf[b.docs[i]!]! < overlayPositions[o.docs[j]!]!);
    // No destructured triple here: an array per posting, millions of them in a merge.
    const data = fromBase ? b : o;
    const from = fromBase ? i++ : j++;
    const doc = data.docs[from]!;
    into.docs[n] = fromBase ? positionOf[doc]! : overlayPositions[doc]!;
    const count = data.counts[from]!;
    into.counts[n] = count;
    if (into.scores) into.scores[n] = postingScore(count, idf, data.projectLengths[doc]!, data.summaryLengths[doc]!, averages);
    if (fromBase) nextBase();
  }
}

/** A word's postings over the snapshot's records, in position order, scored with the snapshot's statistics. */
function scoreWord(layout: OverlayLayout, word: string): Scored | undefined {
  const plan = planWord(layout, word);
  if (plan === undefined) return undefined;
  const scored = { docs: new Int32Array(plan.total), scores: new Float32Array(plan.total), counts: new Uint16Array(plan.total) };
  writeWord(layout, plan, scored, 0);
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

/** Postings written (or base postings counted) between two pauses of a merge: a few milliseconds' work. */
const POSTINGS_PER_STEP = 1 << 16;

/**
 * The index the layout stands for, as one built whole over the snapshot's records would be, less the scores:
 * every live word's postings laid out in position order, with their word counts. Its scores would be read
 * only until the next change, which scores every word again; a merged snapshot reads it through an
 * OverlayTextIndex with nothing layered (overAlone), scoring each word as a rebuild does. Built in steps on the thread that serves,
 * into arrays allocated once at their final size (every live base posting and every overlay posting is one
 * of the merged index's): no copy of the base, no array per word, and no worker thread whose malloc arena
 * (the merged arrays allocated in it and handed over) stayed resident, 64 MB a heap, for good.
 */
export function* mergeLayoutSteps(layout: OverlayLayout): Generator<void, CountedData, void> {
  const words = liveWords(layout);
  yield;
  const { base, positionOf, baseOf, overlay, overlayPositions } = layout;
  let total = overlay.data.docs.length;
  const baseDocs = base.data.docs;
  for (let from = 0; from < baseDocs.length; from += POSTINGS_PER_STEP) {
    for (let i = from; i < Math.min(from + POSTINGS_PER_STEP, baseDocs.length); i++) if (positionOf[baseDocs[i]!]! >= 0) total++;
    yield;
  }
  const starts = new Uint32Array(words.length + 1);
  const merged: Written = { docs: new Int32Array(total), counts: new Uint16Array(total) };
  let sinceStep = 0;
  for (let t = 0; t < words.length; t++) {
    const plan = planWord(layout, words[t]!)!;
    writeWord(layout, plan, merged, starts[t]!);
    starts[t + 1] = starts[t]! + plan.total;
    // A word costs its look-ups beside its postings.
    sinceStep += plan.total + 16;
    if (sinceStep >= POSTINGS_PER_STEP) {
      sinceStep = 0;
      yield;
    }
  }
  const size = sizeOf(layout);
  const projectLengths = new Uint32Array(size);
  const summaryLengths = new Uint32Array(size);
  for (let position = 0; position < size; position++) {
    const doc = baseOf[position]!;
    if (doc >= 0) {
      projectLengths[position] = base.data.projectLengths[doc]!;
      summaryLengths[position] = base.data.summaryLengths[doc]!;
    }
  }
  overlayPositions.forEach((position, doc) => {
    projectLengths[position] = overlay.data.projectLengths[doc]!;
    summaryLengths[position] = overlay.data.summaryLengths[doc]!;
  });
  yield;
  return { words, starts, docs: merged.docs, counts: merged.counts, projectLengths, summaryLengths };
}

/**
 * The index of a snapshot whose records are all in `base`, at the positions base numbers them by: the
 * base read through an identity mask beside an empty overlay, every word scored as a rebuild scores it.
 */
export function overAlone(base: CountedIndex, totals: readonly [number, number]): OverlayTextIndex {
  const size = base.data.projectLengths.length;
  const identity = Int32Array.from({ length: size }, (_, position) => position);
  const overlay = new StoredTextIndex(settled(textIndexSteps(0, () => ({ project: '', summary: '' }))));
  return new OverlayTextIndex({ base, baseOf: identity, positionOf: identity, overlay, overlayPositions: new Int32Array(0), totals });
}
