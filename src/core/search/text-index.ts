// An inverted index over each record's project and summary, scored with BM25+ when built so that a query
// only adds numbers. Written here rather than using MiniSearch's search(), which scores every record of
// every query word and builds a result object for each (9 ms for "remote code execution" on 14,642
// records, where this index takes well under one). MiniSearch still provides the prefix trees behind the
// typo and prefix look-ups (vocabulary.ts).
//
// Everything is in typed arrays, one set for all words (compressed sparse rows): it is built in steps
// (or merged from an overlay), written into a snapshot file and read back as views of that file's bytes, with no
// object per word or per posting. Postings are cut into blocks of BLOCK records, each with the highest
// score in it, so a query can skip every block that cannot change its best few (ranking.ts).
import { forEachWord, STOP_WORDS } from './words.js';

/** Records per block of a word's postings: small enough to skip often, large enough to be worth a check. */
export const BLOCK = 64;

export interface TextIndexData {
  /** Indexed words, sorted; a word's number is its place here. */
  readonly words: readonly string[];
  /** Where each word's postings start in docs/scores (words.length + 1 entries). */
  readonly starts: Uint32Array;
  /** Record positions holding each word, ascending within a word. */
  readonly docs: Int32Array;
  /** The word's BM25+ score in each of those records, fields weighted and summed. */
  readonly scores: Float32Array;
  /** Where each word's blocks start in blockMax (words.length + 1 entries). */
  readonly blockStarts: Uint32Array;
  /** The highest score of each block of BLOCK postings. */
  readonly blockMax: Float32Array;
  /**
   * What each score was made of: the word's count in the project (high byte) and in the summary (low
   * byte). With the field lengths, what a change needs to score the records again (overlay-index.ts).
   */
  readonly counts: Uint16Array;
  /** Each record's words in its project and in its summary (stop words left out), by position. */
  readonly projectLengths: Uint32Array;
  readonly summaryLengths: Uint32Array;
}

/** One word's postings, as views into the index's arrays (no copy). */
export interface Postings {
  readonly docs: Int32Array;
  readonly scores: Float32Array;
  /**
   * The highest score in each block of BLOCK postings, and in all: of every posting, or of all but the
   * outliers another list holds (term-plan.ts, outliersApart).
   */
  readonly blockMax: Float32Array;
  readonly maxScore: number;
}

export interface IndexedText {
  readonly project: string;
  readonly summary: string;
}

/**
 * The project field weighs more than the summary: a record of curl is about curl, while a summary
 * that mentions curl may be about something that merely uses it.
 */
const FIELD_BOOSTS = [3, 1] as const;

// BM25+ with the parameters MiniSearch uses by default: term-frequency saturation k, length
// normalisation b, and the floor d that keeps a long summary's single mention worth something.
const K = 1.2;
const B = 0.7;
const D = 0.5;

/** The inverse document frequency of a word in a field held by `frequency` of `count` records. */
export function inverseFrequency(count: number, frequency: number): number {
  return Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
}

/** The average length of a field, from the total of its lengths: 1 for an empty index. */
export function averageLength(total: number, count: number): number {
  return total / Math.max(1, count) || 1;
}

/** A word's BM25+ score in one field of a record; a posting's score is the project's (as float32) plus the summary's. */
export function fieldScore(field: 0 | 1, idf: number, count: number, length: number, average: number): number {
  const norm = 1 - B + (B * length) / average;
  return FIELD_BOOSTS[field] * idf * (D + (count * (K + 1)) / (count + K * norm));
}

/** Records tokenised between two pauses of a build in steps. */
const RECORDS_PER_STEP = 5000;

const CHUNK = 1 << 20;
/**
 * The first chunk's length; each next one is twice the last, up to CHUNK. A change's overlay of a few
 * hundred records then takes kilobytes, not two chunks of 4 MB allocated and freed at every change.
 */
const FIRST_CHUNK = 1 << 12;

/**
 * A growable Uint32 column, in chunks: growing never copies (a doubling array holds the old and the new
 * array at once), and the chunks are visited in order.
 */
class Column {
  readonly #chunks: Uint32Array[] = [];
  #last = new Uint32Array(FIRST_CHUNK);
  #used = 0;
  /** The values in #chunks. */
  #before = 0;
  get length(): number {
    return this.#before + this.#used;
  }
  push(value: number): void {
    if (this.#used === this.#last.length) {
      this.#chunks.push(this.#last);
      this.#before += this.#used;
      this.#last = new Uint32Array(Math.min(CHUNK, this.#last.length * 2));
      this.#used = 0;
    }
    this.#last[this.#used++] = value;
  }
  /** The values, in chunks of growing lengths (the last one shorter), in order, handed over: the column is left empty. */
  take(): Uint32Array[] {
    const taken = [...this.#chunks, this.#last.subarray(0, this.#used)];
    this.#chunks.length = 0;
    this.#last = new Uint32Array(0);
    this.#used = 0;
    this.#before = 0;
    return taken;
  }
}

// An entry (a word in a field of a record) is two numbers: the word, and the record, the count of the
// word in the field and the field packed in 32 bits. Two columns rather than three, and sorted by word
// into one array, keep the build's memory at a third of what it was (200 MB less at 340,000 records).
const COUNT_BITS = 8;
/** A count above this is taken as this: BM25+ has long saturated well before (and a count fits a byte of `counts`). */
const MAX_COUNT = (1 << COUNT_BITS) - 1;
/** Records an index can hold: 8,388,608, twenty-four times the CVE corpus of 2026. */
export const MAX_INDEXED_RECORDS = 2 ** (32 - COUNT_BITS - 1);
const packEntry = (doc: number, count: number, field: number) =>
  ((doc << (COUNT_BITS + 1)) | (Math.min(count, MAX_COUNT) << 1) | field) >>> 0;

/**
 * Builds the index of records given in listing order. The generator pauses every RECORDS_PER_STEP
 * records so a caller can let the event loop serve requests between steps.
 */
export function* textIndexSteps(count: number, textOf: (position: number) => IndexedText): Generator<void, TextIndexData, void> {
  if (count > MAX_INDEXED_RECORDS) throw new RangeError(`a search index holds at most ${MAX_INDEXED_RECORDS} records`);
  const termIds = new Map<string, number>();
  const terms: string[] = [];
  const entryTerm = new Column();
  const entryRest = new Column(); // packEntry(record, count, field)
  const fieldLengths = [new Uint32Array(count), new Uint32Array(count)];
  // How often each word occurs in the field at hand, and which words it holds, in first-seen order.
  let inField = new Uint32Array(1024);
  const fieldTerms: number[] = [];
  let length = 0;
  const visit = (word: string) => {
    if (STOP_WORDS.has(word)) return;
    length++;
    let term = termIds.get(word);
    if (term === undefined) {
      term = terms.length;
      termIds.set(word, term);
      terms.push(word);
      if (term === inField.length) {
        const grown = new Uint32Array(inField.length * 2);
        grown.set(inField);
        inField = grown;
      }
    }
    if (inField[term]!++ === 0) fieldTerms.push(term);
  };
  for (let position = 0; position < count; position++) {
    if (position % RECORDS_PER_STEP === RECORDS_PER_STEP - 1) yield;
    const text = textOf(position);
    for (let field = 0; field < 2; field++) {
      length = 0;
      fieldTerms.length = 0;
      forEachWord(field === 0 ? text.project : text.summary, visit);
      fieldLengths[field]![position] = length;
      for (let i = 0; i < fieldTerms.length; i++) {
        const term = fieldTerms[i]!;
        entryTerm.push(term);
        entryRest.push(packEntry(position, inField[term]!, field));
        inField[term] = 0;
      }
    }
  }
  yield;

  // Words in sorted order, so a snapshot file's list can be searched and read in order.
  const order = terms.map((_, id) => id).sort((a, b) => (terms[a]! < terms[b]! ? -1 : terms[a]! > terms[b]! ? 1 : 0));
  const rank = new Uint32Array(terms.length);
  order.forEach((id, sorted) => {
    rank[id] = sorted;
  });
  // Counting sort of the entries by word; within a word, entries keep record order, and a record's
  // project entry comes before its summary entry.
  const entries = entryTerm.length;
  const bucketStarts = new Uint32Array(terms.length + 1);
  const termChunks = entryTerm.take();
  const restChunks = entryRest.take();
  for (const chunk of termChunks) for (let i = 0; i < chunk.length; i++) bucketStarts[rank[chunk[i]!]! + 1]!++;
  for (let t = 0; t < terms.length; t++) bucketStarts[t + 1]! += bucketStarts[t]!;
  const fill = bucketStarts.slice(0, terms.length);
  const sorted = new Uint32Array(entries); // packed entries, by word
  termChunks.forEach((chunk, k) => {
    const rest = restChunks[k]!;
    for (let i = 0; i < chunk.length; i++) sorted[fill[rank[chunk[i]!]!]!++] = rest[i]!;
  });
  // The unsorted entries (8 bytes each, 160 MB at 340,000 records) can go before the postings are made.
  termChunks.length = 0;
  restChunks.length = 0;
  yield;

  const [projectLengths, summaryLengths] = fieldLengths as [Uint32Array, Uint32Array];
  const averages = [averageLength(total(projectLengths), count), averageLength(total(summaryLengths), count)];
  const starts = new Uint32Array(terms.length + 1);
  const docs = new Int32Array(entries);
  const scores = new Float32Array(entries);
  const counts = new Uint16Array(entries);
  let postings = 0;
  for (let t = 0; t < terms.length; t++) {
    if (t % 20_000 === 19_999) yield;
    const from = bucketStarts[t]!;
    const to = bucketStarts[t + 1]!;
    const documentFrequency = [0, 0];
    for (let i = from; i < to; i++) documentFrequency[sorted[i]! & 1]!++;
    const idf = documentFrequency.map((n) => inverseFrequency(count, n));
    starts[t] = postings;
    for (let i = from; i < to; i++) {
      const entry = sorted[i]!;
      const doc = entry >>> (COUNT_BITS + 1);
      const field = (entry & 1) as 0 | 1;
      const n = (entry >>> 1) & MAX_COUNT;
      const score = fieldScore(field, idf[field]!, n, fieldLengths[field]![doc]!, averages[field]!);
      // The project's entry comes first: a posting is its score as float32, plus the summary's.
      if (postings > starts[t]! && docs[postings - 1] === doc) {
        scores[postings - 1]! += score;
        counts[postings - 1]! |= n;
      } else {
        docs[postings] = doc;
        scores[postings] = score;
        counts[postings] = field === 0 ? n << 8 : n;
        postings++;
      }
    }
  }
  starts[terms.length] = postings;
  const { blockStarts, blockMax } = blockMaxima(starts, scores);
  return {
    words: order.map((id) => terms[id]!),
    starts,
    // Views, not copies: the few entries merged into one posting leave little unused.
    docs: docs.subarray(0, postings),
    scores: scores.subarray(0, postings),
    blockStarts,
    blockMax,
    counts: counts.subarray(0, postings),
    projectLengths,
    summaryLengths,
  };
}

/** The sum of a column of lengths (exact: integers well below 2^53). */
export function total(lengths: Uint32Array): number {
  let sum = 0;
  for (let i = 0; i < lengths.length; i++) sum += lengths[i]!;
  return sum;
}

/** The blocks of each word's postings and the highest score in each. */
export function blockMaxima(starts: Uint32Array, scores: Float32Array): { blockStarts: Uint32Array; blockMax: Float32Array } {
  const words = starts.length - 1;
  const blockStarts = new Uint32Array(words + 1);
  for (let t = 0; t < words; t++) blockStarts[t + 1] = blockStarts[t]! + Math.ceil((starts[t + 1]! - starts[t]!) / BLOCK);
  const blockMax = new Float32Array(blockStarts[words]!);
  for (let t = 0; t < words; t++) {
    for (let i = starts[t]!, block = blockStarts[t]!; i < starts[t + 1]!; i += BLOCK, block++) {
      let max = 0;
      for (let j = i; j < Math.min(i + BLOCK, starts[t + 1]!); j++) max = Math.max(max, scores[j]!);
      blockMax[block] = max;
    }
  }
  return { blockStarts, blockMax };
}

/**
 * The highest of `values` from `from` to `to` (all of them when not given), 0 when there are none. An
 * indexed loop: `for of` over a Float32Array boxed every number it read.
 */
export function highestOf(values: Float32Array, from = 0, to = values.length): number {
  let max = 0;
  for (let i = from; i < to; i++) if (values[i]! > max) max = values[i]!;
  return max;
}

/** What ranking and the vocabulary read of an index: built whole (StoredTextIndex) or patched by changes (overlay-index.ts). */
export interface TextIndex {
  /** Indexed words, sorted. */
  readonly words: readonly string[];
  postings(word: string): Postings | undefined;
  /** How many records hold the word (0 when none). */
  frequency(word: string): number;
}

/**
 * What an index layered on another (overlay-index.ts) reads of it: each word's records and word counts,
 * and the field lengths. Not the scores: the layered index scores every word again with the statistics of
 * the records it holds.
 */
export type CountedData = Pick<TextIndexData, 'words' | 'starts' | 'docs' | 'counts' | 'projectLengths' | 'summaryLengths'>;

/**
 * An index without scores, for an index to be layered on: what an overlay's merge makes (a merged base's
 * scores, 4 bytes a posting, 52 MB at 340,000 records, would be read only until the next change).
 */
export class CountedIndex {
  readonly #termIds: Map<string, number>;

  constructor(
    readonly data: CountedData,
    termIds?: Map<string, number>,
  ) {
    this.#termIds = termIds ?? new Map(data.words.map((word, term) => [word, term]));
  }

  /**
   * This index's counted postings without anything else it holds (a built index's scores, 52 MB at 340,000
   * records, which an index layered on it never reads): what a layer keeps of a built base.
   */
  counted(): CountedIndex {
    const { words, starts, docs, counts, projectLengths, summaryLengths } = this.data;
    return new CountedIndex({ words, starts, docs, counts, projectLengths, summaryLengths }, this.#termIds);
  }

  get words(): readonly string[] {
    return this.data.words;
  }

  /** The word's number in `data`, if indexed. */
  term(word: string): number | undefined {
    return this.#termIds.get(word);
  }
}

/** Look-ups into a built (or loaded) index, scored. */
export class StoredTextIndex extends CountedIndex implements TextIndex {
  declare readonly data: TextIndexData;
  /** Each word's highest score, worked out once: a query asks for a common word's thousands of blocks' maximum. */
  readonly #maxScores: Float32Array;

  constructor(data: TextIndexData) {
    super(data);
    const { blockStarts, blockMax } = data;
    this.#maxScores = Float32Array.from(data.words, (_, term) => highestOf(blockMax, blockStarts[term]!, blockStarts[term + 1]!));
  }

  postings(word: string): Postings | undefined {
    const term = this.term(word);
    if (term === undefined) return undefined;
    const { starts, docs, scores, blockStarts, blockMax } = this.data;
    return {
      docs: docs.subarray(starts[term]!, starts[term + 1]!),
      scores: scores.subarray(starts[term]!, starts[term + 1]!),
      blockMax: blockMax.subarray(blockStarts[term]!, blockStarts[term + 1]!),
      maxScore: this.#maxScores[term]!,
    };
  }

  /** How many records hold the word (0 when none). */
  frequency(word: string): number {
    const term = this.term(word);
    return term === undefined ? 0 : this.data.starts[term + 1]! - this.data.starts[term]!;
  }
}

/**
 * Reads one word's scores for a run of records. Records are asked for in ascending order within a run,
 * so each look-up gallops forward from where the last one stopped: walking the rare word's records and
 * looking each up in a common word's list costs about the rare list's length, not a bisection each. A
 * position lower than the last starts a new run.
 */
export class PostingsCursor {
  private at = 0;
  private last = -1;

  constructor(readonly postings: Postings) {}

  /**
   * The highest score the word has in any record from `from` to `to` (ascending calls), from the blocks
   * those records fall in; 0 when no record between them holds the word.
   */
  boundBetween(from: number, to: number): number {
    const { docs, blockMax } = this.postings;
    const first = this.seek(from);
    if (first >= docs.length || docs[first]! > to) return 0;
    const last = this.seek(to + 1) - 1;
    let max = 0;
    for (let block = Math.floor(first / BLOCK); block <= Math.floor(last / BLOCK); block++) max = Math.max(max, blockMax[block]!);
    return max;
  }

  /** The index of the first posting at or after `position`. */
  private seek(position: number): number {
    if (position < this.last) this.at = 0;
    this.last = position;
    this.at = seekForward(this.postings.docs, this.at, position);
    return this.at;
  }
}

/**
 * The index of the first of `docs` (ascending) at or after `position`, searching from `from` on: a few
 * steps one by one (the next record is usually close), then doubling strides and a bisection of the last.
 */
export function seekForward(docs: Int32Array, from: number, position: number): number {
  const n = docs.length;
  let i = from;
  for (let steps = 0; steps < 8; steps++, i++) if (i >= n || docs[i]! >= position) return i;
  // docs[i - 1] is before the position; gallop from there.
  let low = i - 1;
  let high = i;
  for (let stride = 1; high < n && docs[high]! < position; stride *= 2) {
    low = high;
    high = low + stride * 2;
  }
  let to = Math.min(high, n);
  let start = low + 1;
  while (start < to) {
    const middle = (start + to) >>> 1;
    if (docs[middle]! < position) start = middle + 1;
    else to = middle;
  }
  return start;
}
