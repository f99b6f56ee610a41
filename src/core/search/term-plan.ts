// A query term as ranking reads it: its spellings, each a list of words, each word a list of indexed
// words that may stand for it (options), and the scorer that reads their postings in ascending record
// order. A term with several spellings the index holds as typed ("rce": "remote code execution",
// "execute arbitrary code", "code execution") is read as one list of its own, made once per index.
//
// A common word's list is bounded as two: the records where it scores far above its usual (a word in a
// project name, boosted three times on a field of a few words, scores ten times the word in a summary) as
// a short list of their own, and the whole list with its blocks' maxima and highest score taken without
// them. A question of common words then sets the bar by the summaries' scores, not by the few projects
// named with one of its words, which lie in every part of the list and lifted every block's maximum.

import { RecentlyUsed } from '../recently-used.js';
import { union } from './position-lists.js';
import { BLOCK, blockMaxima, highestOf, type Postings, PostingsCursor, seekForward, type TextIndex } from './text-index.js';

/** An indexed word standing for a query word, with its weight; the bounds cursor belongs to this query alone. */
export interface WordOption {
  readonly postings: Postings;
  readonly bounds: PostingsCursor;
  readonly weight: number;
}

/** A query term ready to evaluate: its usable spellings, each a list of words, each a list of options. */
export type TermPlan = readonly (readonly (readonly WordOption[])[])[];

/**
 * Scores records against terms, records in ascending order for each term: every option's postings are
 * read with a plain index that only moves forward, the hottest loop of a search. A term is met by its
 * best spelling that has every word, each word scored by its best option.
 */
export class TermScorer {
  private readonly docs: Int32Array[] = [];
  private readonly scores: Float32Array[] = [];
  private readonly weights: number[] = [];
  private readonly at: Int32Array;
  /** Nested ranges: a term's spellings in formStarts, a spelling's words in wordStarts, a word's options in optionStarts. */
  private readonly formStarts: number[] = [0];
  private readonly wordStarts: number[] = [0];
  private readonly optionStarts: number[] = [0];
  /** The weakest word's weight of the spelling that met the term termScore last read. */
  quality = 1;

  constructor(plans: readonly TermPlan[]) {
    for (const plan of plans) {
      for (const form of plan) {
        for (const options of form) {
          for (const option of options) {
            this.docs.push(option.postings.docs);
            this.scores.push(option.postings.scores);
            this.weights.push(option.weight);
          }
          this.optionStarts.push(this.docs.length);
        }
        this.wordStarts.push(this.optionStarts.length - 1);
      }
      this.formStarts.push(this.wordStarts.length - 1);
    }
    this.at = new Int32Array(this.docs.length);
  }

  /** Back to the first records, to read records in ascending order again. */
  rewind(): void {
    this.at.fill(0);
  }

  /** The score of term `t` in the record (0 when the record does not meet it); sets quality. */
  termScore(t: number, position: number): number {
    const { docs, scores, weights, at, formStarts, wordStarts, optionStarts } = this;
    let best = 0;
    let bestQuality = 1;
    for (let f = formStarts[t]!; f < formStarts[t + 1]!; f++) {
      let score = 0;
      let quality = 1;
      for (let w = wordStarts[f]!; w < wordStarts[f + 1]!; w++) {
        let wordScore = 0;
        let wordQuality = 0;
        for (let o = optionStarts[w]!; o < optionStarts[w + 1]!; o++) {
          const list = docs[o]!;
          const i = seekForward(list, at[o]!, position);
          at[o] = i;
          if (i < list.length && list[i] === position) {
            wordScore = Math.max(wordScore, weights[o]! * scores[o]![i]!);
            wordQuality = Math.max(wordQuality, weights[o]!);
          }
        }
        if (wordScore === 0) {
          score = 0;
          break;
        }
        score += wordScore;
        quality = Math.min(quality, wordQuality);
      }
      if (score > best) {
        best = score;
        bestQuality = quality;
      }
    }
    this.quality = bestQuality;
    return best;
  }
}

/** Lists of spellings kept per index: a query reads a handful; past this many the least used is made again when asked. */
const KEPT_SPELLINGS = 64;
const spellingLists = new WeakMap<TextIndex, RecentlyUsed<string, readonly Postings[]>>();

/** What `lists` keeps for `text`, made empty (`make`) at its first use. */
function keptFor<T>(lists: WeakMap<TextIndex, T>, text: TextIndex, make: () => T): T {
  let kept = lists.get(text);
  if (kept === undefined) {
    kept = make();
    lists.set(text, kept);
  }
  return kept;
}

/**
 * One list for spellings whose every word is an indexed word (its options, the word and its plural):
 * the records meeting any of them, each scored as TermScorer scores the term (the best spelling it
 * meets, each word at its best option), as float32 as any posting. Read as one word, its blocks' maxima
 * bound the term itself rather than the sum of each spelling's words' maxima, so ranking skips the
 * records of "code" and "execution" that cannot reach the best few; its outliers apart (outliersApart).
 * Made on first use (a walk of the spellings' rarest words), then kept with the index.
 */
export function spellingsPostings(text: TextIndex, spellings: readonly (readonly (readonly string[])[])[]): readonly Postings[] {
  const kept = keptFor(spellingLists, text, () => new RecentlyUsed<string, readonly Postings[]>(Number.POSITIVE_INFINITY, KEPT_SPELLINGS));
  return kept.use(JSON.stringify(spellings), () => ({ value: outliersApart(scoreSpellings(text, spellings)), weight: 0 }));
}

function scoreSpellings(text: TextIndex, spellings: readonly (readonly (readonly string[])[])[]): Postings {
  const plan: TermPlan = spellings.map((words) =>
    words.map((options) =>
      options.map((word) => {
        const postings = text.postings(word)!;
        return { postings, bounds: new PostingsCursor(postings), weight: 1 };
      }),
    ),
  );
  // Only the records of a spelling's rarest word can meet every word of it.
  const candidates = union(plan.map((words) => union(rarestWord(words).map((option) => option.postings.docs))));
  const scorer = new TermScorer([plan]);
  const docs = new Int32Array(candidates.length);
  const scores = new Float32Array(candidates.length);
  let n = 0;
  for (const position of candidates) {
    const score = scorer.termScore(0, position);
    if (score === 0) continue;
    docs[n] = position;
    scores[n++] = score;
  }
  const { blockMax } = blockMaxima(Uint32Array.of(0, n), scores.subarray(0, n));
  return { docs: docs.slice(0, n), scores: scores.slice(0, n), blockMax, maxScore: highestOf(blockMax) };
}

/** The word of a spelling held by the fewest records: only its records can have every word. */
export function rarestWord(form: readonly (readonly WordOption[])[]): readonly WordOption[] {
  const records = (options: readonly WordOption[]) => options.reduce((sum, option) => sum + option.postings.docs.length, 0);
  return form.reduce((rarest, options) => (records(options) < records(rarest) ? options : rarest));
}

/**
 * A posting is an outlier of its list when it scores above this multiple of the list's mean. A word's
 * BM25+ in a summary moves within about twice its usual score with the summary's length and the word's
 * count (text-index.ts: 0.5 + 2.2 n / (n + 1.2 norm)); in a project name it is boosted three times, on a
 * field of a few words whose own frequency is far rarer, and scores ten to twenty times as much.
 */
const OUTLIER_FACTOR = 2;
/** Lists of fewer postings than this are read as they are: a block or so, skipped or read whole either way. */
const APART_FROM = 4 * BLOCK;
/**
 * Words' lists kept apart per index, by weight: each counts its blocks and its outliers (a few bytes each),
 * 4 MB or so in all, though a query reads a handful of words.
 */
const KEPT_APART = 1 << 20;
const apartLists = new WeakMap<TextIndex, RecentlyUsed<string, readonly Postings[]>>();

/** The word's postings, its outliers apart (outliersApart); made once per index and kept. */
export function wordPostings(text: TextIndex, word: string): readonly Postings[] {
  const kept = keptFor(apartLists, text, () => new RecentlyUsed<string, readonly Postings[]>(KEPT_APART));
  return kept.use(word, () => {
    const lists = outliersApart(text.postings(word)!);
    return { value: lists, weight: lists.reduce((sum, list) => sum + list.blockMax.length, 0) + (lists[1]?.docs.length ?? 0) };
  });
}

/**
 * A list read as two when some of its postings score far above the rest (OUTLIER_FACTOR): the whole list,
 * whose block maxima and highest score bound every posting but the outliers, then the outliers, copied,
 * as a list of their own. Ranking reads both as options of one word (a record scores its best option: an
 * outlier the same in both), so a record's score is bounded by the first list's bounds unless the second
 * holds it. The list as it is when none stands out, or when it is short.
 */
export function outliersApart(postings: Postings): readonly Postings[] {
  const { docs, scores } = postings;
  if (docs.length < APART_FROM) return [postings];
  let sum = 0;
  for (let i = 0; i < scores.length; i++) sum += scores[i]!;
  const bar = (OUTLIER_FACTOR * sum) / scores.length;
  let outliers = 0;
  for (let i = 0; i < scores.length; i++) if (scores[i]! > bar) outliers++;
  if (outliers === 0) return [postings];
  const outlierDocs = new Int32Array(outliers);
  const outlierScores = new Float32Array(outliers);
  const restMax = new Float32Array(Math.ceil(scores.length / BLOCK));
  for (let i = 0, n = 0; i < scores.length; i++) {
    const score = scores[i]!;
    if (score > bar) {
      outlierDocs[n] = docs[i]!;
      outlierScores[n++] = score;
    } else if (score > restMax[Math.floor(i / BLOCK)]!) restMax[Math.floor(i / BLOCK)] = score;
  }
  const outlierMax = blockMaxima(Uint32Array.of(0, outliers), outlierScores).blockMax;
  return [
    { docs, scores, blockMax: restMax, maxScore: highestOf(restMax) },
    { docs: outlierDocs, scores: outlierScores, blockMax: outlierMax, maxScore: highestOf(outlierMax) },
  ];
}
