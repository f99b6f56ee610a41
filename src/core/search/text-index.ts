// An inverted index over record project and summary, scored with BM25+ when built so that a query only
// adds numbers. Written here rather than using MiniSearch's search(): that one scores every record of
// every query word and builds a result object for each (9 ms for "remote code execution" on the
// shipped catalog in AND mode, 17 ms in OR mode, on a 2-core VM), and its index took 2.8 s to build
// there against about 1 s for this one. Here a query walks the rarest word's records and looks the
// other words up. MiniSearch still provides the prefix trees behind prefix and typo look-ups.
import { STOP_WORDS, words } from './words.js';

export interface Postings {
  /** Positions (listing order) of the records holding the word, ascending. */
  readonly positions: Int32Array;
  /** The word's BM25+ score in each of those records, fields weighted and summed. */
  readonly scores: Float32Array;
}

export interface IndexedText {
  readonly project: string;
  readonly summary: string;
}

/**
 * The project field weighs more than the summary: a record of curl is about curl, while a summary
 * that mentions curl may be about something that merely uses it.
 */
const FIELD_BOOSTS = { project: 3, summary: 1 } as const;
const FIELDS = ['project', 'summary'] as const;

// BM25+ with the parameters MiniSearch uses by default: term-frequency saturation k, length
// normalisation b, and the floor d that keeps a long summary's single mention worth something.
const K = 1.2;
const B = 0.7;
const D = 0.5;

/** Occurrences of one word while the index is built: parallel lists, one entry per record and field. */
interface Occurrences {
  readonly positions: number[];
  readonly fields: number[];
  readonly counts: number[];
}

/** Records indexed between two pauses of a build in steps. */
const RECORDS_PER_STEP = 2000;

/**
 * Builds the index in steps: the generator pauses every RECORDS_PER_STEP records, so a caller can let
 * the event loop serve requests between steps (a 300,000-record catalog takes seconds to index).
 */
export function* textIndexSteps(records: readonly IndexedText[]): Generator<void, Map<string, Postings>, void> {
  const occurrences = new Map<string, Occurrences>();
  const fieldLengths = FIELDS.map(() => new Uint32Array(records.length));
  const perRecord = new Map<string, number>();
  for (const [position, record] of records.entries()) {
    if (position % RECORDS_PER_STEP === RECORDS_PER_STEP - 1) yield;
    FIELDS.forEach((field, f) => {
      perRecord.clear();
      let length = 0;
      for (const word of words(record[field])) {
        if (STOP_WORDS.has(word)) continue;
        length++;
        perRecord.set(word, (perRecord.get(word) ?? 0) + 1);
      }
      fieldLengths[f]![position] = length;
      for (const [word, count] of perRecord) {
        let list = occurrences.get(word);
        if (!list) {
          list = { positions: [], fields: [], counts: [] };
          occurrences.set(word, list);
        }
        list.positions.push(position);
        list.fields.push(f);
        list.counts.push(count);
      }
    });
  }

  const averageLengths = fieldLengths.map((lengths) => lengths.reduce((sum, n) => sum + n, 0) / Math.max(1, records.length) || 1);
  const boosts = FIELDS.map((field) => FIELD_BOOSTS[field]);
  const index = new Map<string, Postings>();
  for (const [word, list] of occurrences) {
    const documentFrequency = FIELDS.map(() => 0);
    for (const f of list.fields) documentFrequency[f]!++;
    const idf = documentFrequency.map((n) => Math.log(1 + (records.length - n + 0.5) / (n + 0.5)));
    // A record's fields were added one after the other, so its entries are neighbours: merge them.
    const positions: number[] = [];
    const scores: number[] = [];
    for (let i = 0; i < list.positions.length; i++) {
      const position = list.positions[i]!;
      const f = list.fields[i]!;
      const count = list.counts[i]!;
      const norm = 1 - B + (B * fieldLengths[f]![position]!) / averageLengths[f]!;
      const score = boosts[f]! * idf[f]! * (D + (count * (K + 1)) / (count + K * norm));
      if (positions.at(-1) === position) scores[scores.length - 1]! += score;
      else {
        positions.push(position);
        scores.push(score);
      }
    }
    index.set(word, { positions: Int32Array.from(positions), scores: Float32Array.from(scores) });
  }
  return index;
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

  constructor(private readonly postings: Postings) {}

  /** The word's score in the record at `position`, or 0 when the record does not hold it. */
  scoreAt(position: number): number {
    const { positions, scores } = this.postings;
    const n = positions.length;
    if (position < this.last) this.at = 0;
    this.last = position;
    let i = this.at;
    if (i < n && positions[i]! < position) {
      // Double the stride until it passes the position, then bisect the last stride.
      let low = i;
      let high = i + 1;
      for (let stride = 1; high < n && positions[high]! < position; stride *= 2) {
        low = high;
        high = low + stride * 2;
      }
      let from = low + 1;
      let to = Math.min(high, n);
      while (from < to) {
        const middle = (from + to) >>> 1;
        if (positions[middle]! < position) from = middle + 1;
        else to = middle;
      }
      i = from;
    }
    this.at = i;
    return i < n && positions[i] === position ? scores[i]! : 0;
  }
}
