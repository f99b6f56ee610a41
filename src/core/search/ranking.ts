// Ranks records for the words of a query. Any word may match: a record scores the BM25 of the words it
// has, times the share of the query's words it meets, cubed (a reward for meeting more of them), so a
// question never answers empty while one of its words matches, and records with every word come first.
// A word that names a project, or a vendor or family of projects, is met by those projects' records as
// well, weighted above the word in text: "openssl" ranks OpenSSL's records above perl-Crypt-OpenSSL-RSA's.
// Scores are calibrated into bands so a number means the same thing whatever the query: 0.9 a project
// named by the whole query (0.85 a vendor, 0.75/0.7 by a prefix or a typo); up to 0.8 the rest. (1, an
// identifier, is search.ts's.) Cleared ids without a public record come after published records unless
// the question is about status.
//
// Only the best few records of a query are wanted, so records are visited by MaxScore: each term has a
// ceiling (its words at their highest scores), and once the records kept so far set a floor, the terms
// whose ceilings together (with the reward for meeting them all) cannot reach it stop bringing records:
// only the records of the other terms are visited, and a record is left as soon as what its unread terms
// could add cannot lift it to the floor. The bound is safe, so the answer is the one a full evaluation
// gives (test/core/search-bounded.test.ts), while a question of common words reads the records of its
// rarest ones rather than of every word.
import { STATUS_CODES } from '../record-table.js';
import type { Snapshot } from '../snapshot.js';
import { describeNamedProjects, findNamedProjects, type NamedProjects, type NamingKind } from './named-projects.js';
import type { QueryTerm } from './query-understanding.js';
import type { SearchIndex } from './search-index.js';
import { BLOCK, type Postings, PostingsCursor, seekForward } from './text-index.js';
import { type RankedPosition, TopHits } from './top-hits.js';
import { vendorFamilies } from './vendor-families.js';
import type { WordMatch, WordMatchKind } from './vocabulary.js';

export interface Ranking {
  readonly ranked: readonly RankedPosition[];
  readonly explanation: readonly string[];
}

export interface RankOptions {
  /** Whether the question asks about status: then cleared ids without a public record are not set back. */
  readonly statusAsked: boolean;
}

/** Top of each band; a record found by its words is scaled into (0, text]. */
const SCORE_BANDS = {
  project: { exact: 0.9, alias: 0.9, vendor: 0.85, prefix: 0.75, typo: 0.7 } satisfies Record<NamingKind, number>,
  text: 0.8,
} as const;

/**
 * What a word found through its start or a typo is worth next to the word itself. Applied twice on
 * purpose: to the word's BM25, so such words weigh less against typed ones, and to the final score,
 * so a record found only by guessing never scores like one found by the words typed.
 */
const WORD_WEIGHT: Record<WordMatchKind, number> = { exact: 1, prefix: 0.6, typo: 0.5 };

/**
 * A record of a project the words name meets those words at this multiple of the most the words score
 * in any record's text, so the project itself outranks records that merely mention its name; its
 * quality is the naming's (a project guessed from a typo never scores like one named as spelled).
 */
const NAMING_WEIGHT: Record<NamingKind, { readonly score: number; readonly quality: number }> = {
  exact: { score: 1.5, quality: 1 },
  alias: { score: 1.5, quality: 1 },
  vendor: { score: 1.2, quality: 1 },
  prefix: { score: 1, quality: WORD_WEIGHT.prefix },
  typo: { score: 1, quality: WORD_WEIGHT.typo },
};
/** What a naming is worth when its word is in no record's text (a typo, a run-together name). */
const UNINDEXED_NAMING_SCORE = 10;
/**
 * A word that names a project counts this many times among the words met: "heap overflow in curl" is
 * first about curl, so curl's records without a heap overflow come before other projects' heap overflows.
 */
const NAMING_COORDINATION = 2;

/** Cleared ids without a public record have no text; behind published records, unless status is asked. */
const NOT_PUBLIC_WEIGHT = 0.5;
const NOT_PUBLIC = STATUS_CODES.indexOf('assigned-no-public-record');

/**
 * Scores are rounded to four decimals and ties go to listing order (top-hits.ts), so a record whose
 * relevance is a little below the last kept one may still tie it once scaled and rounded, and come first.
 * A scaled score moves by at most (the text band) / (lowest word weight) times a relevance's share of
 * the best, so records within this share of the most a query can score are kept as well.
 */
const TIE_SHARE = 1e-4 / (SCORE_BANDS.text * Math.min(...Object.values(WORD_WEIGHT)));

/** Blocks of each candidate list read before the rest, and the most records read so. */
const SEED_BLOCKS = 2;
const SEED_RECORDS = 2048;

/**
 * A record's bound and its score sum the same numbers in another order, so the bound may come out a
 * rounding error below the score; it is raised by this share before it is compared.
 */
const BOUND_MARGIN = 1e-9;

/** An indexed word standing for a query word, with its weight; the bounds cursor belongs to this query alone. */
interface WordOption {
  readonly postings: Postings;
  readonly bounds: PostingsCursor;
  readonly weight: number;
}

/** A query term ready to evaluate: its usable spellings, each a list of words, each a list of options. */
type TermPlan = readonly (readonly (readonly WordOption[])[])[];

/** Record positions, ascending. */
type Positions = Int32Array;

/** The `limit` records that best meet the words, best first, with what the catalog made of the words. */
export function rankByWords(
  snapshot: Snapshot,
  index: SearchIndex,
  terms: readonly QueryTerm[],
  accept: (position: number) => boolean,
  limit: number,
  options: RankOptions,
): Ranking {
  const named = findNamedProjects(index, vendorFamilies(snapshot.table), terms);
  const explanation = named.map((match) => describeNamedProjects(match, terms));
  // A word that names a project as spelled is explained; guessing other words for it only adds noise
  // ("nodejs" names Node.js, and is no typo of "nodes").
  const spelledNames = new Set(named.flatMap((match) => (match.kind === 'exact' || match.kind === 'alias' ? match.terms : [])));
  const textPlans = terms.map((term, t) => planTerm(index, term, spelledNames.has(t), explanation));
  const namedTerms = new Set(named.flatMap((match) => match.terms));
  const known = terms.flatMap((_, t) => (textPlans[t]!.length > 0 || namedTerms.has(t) ? [t] : []));
  const unknown = terms.filter((_, t) => !known.includes(t));
  explanation.push(...unknown.map((term) => `nothing matches "${term.word}"`));
  if (known.length === 0) return { ranked: [], explanation };
  if (unknown.length > 0) explanation.push(`searching ${known.map((t) => terms[t]!.word).join(', ')}`);

  const top = new TopHits(limit);
  const { status } = snapshot.table;
  const setBack = (position: number) => !options.statusAsked && status[position] === NOT_PUBLIC;

  // A project (or vendor) named by every known word: its records, all equal, newest first, published first.
  for (const match of named) {
    if (!known.every((t) => match.terms.includes(t))) continue;
    const members = projectPositions(snapshot, match.projects);
    const best = SCORE_BANDS.project[match.kind];
    let kept = 0;
    for (let i = 0; i < members.length && kept < limit; i++) {
      const position = members[i]!;
      if (!accept(position)) continue;
      if (setBack(position)) top.offer(position, best * NOT_PUBLIC_WEIGHT);
      else {
        top.offer(position, best);
        kept++;
      }
    }
  }

  // Every record with any of the words, by how well and how many of them it meets. Its scores stay in
  // the text band, so when named projects' records already fill the answer above it ("linux kernel"
  // names Linux, with thousands of records) reading the records with the words changes nothing.
  if (top.floor <= SCORE_BANDS.text) {
    const plans = known.map((t) => withNamings(snapshot, textPlans[t]!, named, t));
    const weights = known.map((t) => (namedTerms.has(t) ? NAMING_COORDINATION : 1));
    const found = bestByAnyWords(plans, weights, accept, setBack, limit);
    offerScaled(top, found, (share) => SCORE_BANDS.text * share);
  }
  return { ranked: top.ranked(), explanation };
}

/**
 * The term's text spellings, plus one spelling met by the records of each project the term helps name,
 * scored above the term's best in text (NAMING_WEIGHT).
 */
function withNamings(snapshot: Snapshot, plan: TermPlan, named: readonly NamedProjects[], t: number): TermPlan {
  const namings = named.filter((match) => match.terms.includes(t));
  if (namings.length === 0) return plan;
  const ceiling = termCeiling(plan) || UNINDEXED_NAMING_SCORE;
  const memberships = namings.map((match) => {
    const weight = NAMING_WEIGHT[match.kind];
    const postings = constantPostings(projectPositions(snapshot, match.projects), weight.score * ceiling);
    return [[{ postings, bounds: new PostingsCursor(postings), weight: weight.quality }]];
  });
  return [...plan, ...memberships];
}

/** Postings of records that all score the same. */
function constantPostings(docs: Positions, score: number): Postings {
  return {
    docs,
    scores: new Float32Array(docs.length).fill(score),
    blockMax: new Float32Array(Math.ceil(docs.length / BLOCK)).fill(score),
    maxScore: docs.length > 0 ? score : 0,
  };
}

/**
 * The indexed words that stand for each word of each spelling; a spelling with an unknown word is
 * dropped, and so is one needing a guessed word when `spelledOnly`.
 */
function planTerm(index: SearchIndex, term: QueryTerm, spelledOnly: boolean, explanation: string[]): TermPlan {
  return term.forms.flatMap((form, f) => {
    const matches = form.map((word) => index.vocabulary.match(word));
    if (matches.some((match) => match === undefined || (spelledOnly && match.kind !== 'exact'))) return [];
    return [
      (matches as WordMatch[]).map((match, w) => {
        if (f === 0) explanation.push(...describeWordMatch(form[w]!, match));
        return match.terms.map((word) => {
          const postings = index.text.postings(word)!;
          return { postings, bounds: new PostingsCursor(postings), weight: WORD_WEIGHT[match.kind] };
        });
      }),
    ];
  });
}

/** The most a term can add to a record between two positions (0: no record between them has it). */
function termBound(plan: TermPlan, from: number, to: number): number {
  let best = 0;
  for (const form of plan) {
    let sum = 0;
    for (const options of form) {
      let word = 0;
      for (const option of options) word = Math.max(word, option.weight * option.bounds.boundBetween(from, to));
      if (word === 0) {
        sum = 0;
        break;
      }
      sum += word;
    }
    best = Math.max(best, sum);
  }
  return best;
}

/** A record's relevance to the terms: raw relevance times quality, the weakest met term's quality. */
interface Scored {
  readonly position: number;
  readonly key: number;
  readonly quality: number;
}

/**
 * The reward for meeting more of the words: the share of them met, cubed. Steep on purpose: a word in a
 * project name weighs three times a word in a summary (text-index.ts), and "Oracle Shipping Execution"
 * must not outrank the records that say "remote code execution" in full.
 */
function coordination(met: number, of: number): number {
  return (met / of) ** 3;
}

/**
 * The `limit` accepted records that best meet the terms, by relevance (the terms met, times coordination)
 * times quality, best first, then listing order, and any that may tie the last of them once scaled and
 * rounded (TIE_SHARE). Records that cannot reach the last kept are skipped, whole or after a few terms.
 */
function bestByAnyWords(
  plans: readonly TermPlan[],
  weights: readonly number[],
  accept: (position: number) => boolean,
  setBack: (position: number) => boolean,
  limit: number,
): Scored[] {
  const kept: Scored[] = [];
  if (limit <= 0) return kept;
  const scorer = new TermScorer(plans);
  const ceilings = plans.map(termCeiling);
  const slack = TIE_SHARE * ceilings.reduce((sum, ceiling) => sum + ceiling, 0);
  const all = weights.reduce((sum, weight) => sum + weight, 0);
  // Terms from the highest ceiling down; what the terms from the k-th on can add at most, and weigh.
  const order = plans.map((_, t) => t).sort((a, b) => ceilings[b]! - ceilings[a]! || a - b);
  const restCeiling = new Float64Array(order.length + 1);
  const restWeight = new Float64Array(order.length + 1);
  for (let k = order.length - 1; k >= 0; k--) {
    restCeiling[k] = restCeiling[k + 1]! + ceilings[order[k]!]!;
    restWeight[k] = restWeight[k + 1]! + weights[order[k]!]!;
  }
  // The most a record can reach with `score` from the terms read, meeting `met` of them, and every term from the k-th on.
  const reach = (score: number, met: number, k: number) =>
    (score + restCeiling[k]!) * coordination(met + restWeight[k]!, all) * (1 + BOUND_MARGIN);
  // What a record must reach to be kept: within the slack of the limit-th best so far.
  let floor = 0;
  // The terms before `driving` in `order` bring the records visited; a record with none of them cannot reach the floor.
  let driving = order.length;
  const termScores = new Float64Array(plans.length);
  const candidates = new Candidates(plans);
  // Keeps the record if it can be among the best: its terms read from the highest ceiling down, and left
  // as soon as the rest cannot lift it to the floor.
  const consider = (position: number) => {
    if (!accept(position)) return;
    let score = 0;
    let met = 0;
    let weakest = 1;
    for (let k = 0; k < order.length; k++) {
      if (reach(score, met, k) < floor) return;
      const t = order[k]!;
      const termScore = scorer.termScore(t, position);
      termScores[t] = termScore;
      if (termScore === 0) continue;
      score += termScore;
      met += weights[t]!;
      weakest = Math.min(weakest, scorer.quality);
    }
    if (score === 0) return;
    // Summed in the terms' own order, as a full evaluation sums them, so equal records score equal to the bit.
    let sum = 0;
    for (let t = 0; t < plans.length; t++) sum += termScores[t]!;
    const key = sum * coordination(met, all) * weakest * (setBack(position) ? NOT_PUBLIC_WEIGHT : 1);
    if (key < floor) return;
    let at = kept.length;
    while (at > 0 && kept[at - 1]!.key < key) at--;
    kept.splice(at, 0, { position, key, quality: weakest });
    if (kept.length < limit) return;
    floor = kept[limit - 1]!.key - slack;
    while (kept[kept.length - 1]!.key < floor) kept.pop();
    while (driving > 0 && reach(0, 0, driving - 1) < floor) candidates.drop(order[--driving]!);
  };

  // First the records of each list's blocks with the highest maxima, the likeliest to be among the best,
  // so the floor is high before the lists are walked; then every other record, in order.
  const seeds = candidates.promising();
  for (const position of seeds) consider(position);
  scorer.rewind();
  let seed = 0;
  // Records up to here lie in a run whose bound was checked and found to reach the floor.
  let checkedTo = -1;
  for (let position = candidates.next(); position >= 0; position = candidates.next()) {
    while (seed < seeds.length && seeds[seed]! < position) seed++;
    if (seeds[seed] === position) continue;
    if (floor > 0 && position > checkedTo) {
      // The run to the end of the nearest block of the lists read: when the highest scores of every
      // word in the blocks it spans (text-index.ts) cannot reach the floor, none of its records is read.
      const end = candidates.blockEnd(position);
      let bound = 0;
      let present = 0;
      plans.forEach((plan, t) => {
        const term = termBound(plan, position, end);
        if (term > 0) {
          bound += term;
          present += weights[t]!;
        }
      });
      if (bound * coordination(present, all) * (1 + BOUND_MARGIN) < floor) {
        candidates.skipPast(end);
        continue;
      }
      checkedTo = end;
    }
    consider(position);
  }
  return kept;
}

/** The most a term can add to any record: its best spelling's words at their highest scores. */
function termCeiling(plan: TermPlan): number {
  let best = 0;
  for (const form of plan) {
    let sum = 0;
    for (const options of form) sum += Math.max(...options.map((option) => option.weight * option.postings.maxScore));
    best = Math.max(best, sum);
  }
  return best;
}

/**
 * Scores records against terms, records in ascending order for each term: every option's postings are
 * read with a plain index that only moves forward, the hottest loop of a search. A term is met by its
 * best spelling that has every word, each word scored by its best option.
 */
class TermScorer {
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

/**
 * The records that may meet the terms still asked for, ascending, each once: those holding a first word
 * of one of a term's spellings. The lists are merged as they are read (a heap of their next records), so
 * a term dropped on the way (it can no longer bring a record to the floor) stops costing anything.
 */
class Candidates {
  private readonly lists: Int32Array[] = [];
  private readonly blockMaxima: Float32Array[] = [];
  /** The term of each list. */
  private readonly terms: number[] = [];
  private readonly at: Int32Array;
  /** Lists not yet read to the end, as a binary heap on their next record. */
  private readonly heap: number[];
  private readonly dropped: boolean[];

  constructor(plans: readonly TermPlan[]) {
    plans.forEach((plan, t) => {
      for (const form of plan) {
        for (const option of form[0]!) {
          if (option.postings.docs.length === 0) continue;
          this.lists.push(option.postings.docs);
          this.blockMaxima.push(option.postings.blockMax);
          this.terms.push(t);
        }
      }
    });
    this.at = new Int32Array(this.lists.length);
    this.dropped = plans.map(() => false);
    this.heap = [];
    for (let list = 0; list < this.lists.length; list++) this.push(list);
  }

  /**
   * Where the run starting at `position` (the record just read) ends: the last record of the block of
   * postings the next record of some list is in, the nearest such end; `position` when no list is left.
   */
  blockEnd(position: number): number {
    let end = Number.MAX_SAFE_INTEGER;
    for (const list of this.heap) {
      if (this.dropped[this.terms[list]!]) continue;
      const docs = this.lists[list]!;
      end = Math.min(end, docs[Math.min(docs.length, (Math.floor(this.at[list]! / BLOCK) + 1) * BLOCK) - 1]!);
    }
    return end === Number.MAX_SAFE_INTEGER ? position : end;
  }

  /** Moves every list past `position`. */
  skipPast(position: number): void {
    const lists = this.heap.splice(0);
    for (const list of lists) {
      if (this.dropped[this.terms[list]!]) continue;
      this.at[list] = seekForward(this.lists[list]!, this.at[list]!, position + 1);
      if (this.at[list]! < this.lists[list]!.length) this.push(list);
    }
  }

  /**
   * The records of each list's SEED_BLOCKS blocks with the highest maxima, ascending, each once, at most
   * SEED_RECORDS of them (the lists of the first terms first).
   */
  promising(): Positions {
    const picked: Positions[] = [];
    let count = 0;
    for (let list = 0; list < this.lists.length && count < SEED_RECORDS; list++) {
      const docs = this.lists[list]!;
      for (const block of highest(this.blockMaxima[list]!, SEED_BLOCKS)) {
        const records = docs.subarray(block * BLOCK, Math.min(docs.length, (block + 1) * BLOCK));
        picked.push(records);
        count += records.length;
      }
    }
    return union(picked);
  }

  /** Stops reading the term's lists. */
  drop(term: number): void {
    this.dropped[term] = true;
  }

  /** The next record, or -1 when none is left. */
  next(): number {
    const { heap, lists, at } = this;
    let position = -1;
    while (heap.length > 0) {
      const list = heap[0]!;
      if (this.dropped[this.terms[list]!]) {
        this.popTop();
        continue;
      }
      const doc = lists[list]![at[list]!]!;
      if (position >= 0 && doc !== position) break;
      position = doc;
      if (++at[list]! < lists[list]!.length) this.siftDown(0);
      else this.popTop();
    }
    return position;
  }

  private head(list: number): number {
    return this.lists[list]![this.at[list]!]!;
  }

  private push(list: number): void {
    const { heap } = this;
    let i = heap.length;
    heap.push(list);
    while (i > 0) {
      const parent = (i - 1) >>> 1;
      if (this.head(heap[parent]!) <= this.head(list)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = list;
  }

  private popTop(): void {
    const last = this.heap.pop()!;
    if (this.heap.length === 0) return;
    this.heap[0] = last;
    this.siftDown(0);
  }

  private siftDown(from: number): void {
    const { heap } = this;
    const list = heap[from]!;
    const key = this.head(list);
    let i = from;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= heap.length) break;
      if (child + 1 < heap.length && this.head(heap[child + 1]!) < this.head(heap[child]!)) child++;
      if (this.head(heap[child]!) >= key) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = list;
  }
}

/**
 * Offers each found record at `scale(share)`, where share in (0, 1] is its key against the best key,
 * times the best record's quality: when even the best was found by a guessed word, none scores like a
 * record found by the words typed.
 */
function offerScaled(top: TopHits, found: readonly Scored[], scale: (share: number) => number): void {
  const best = found[0];
  if (!best) return;
  for (const { position, key } of found) top.offer(position, scale((key / best.key) * best.quality));
}

/** The indexes of the `count` highest values, highest first (earliest first among equals). */
function highest(values: Float32Array, count: number): number[] {
  const best: number[] = [];
  for (let i = 0; i < values.length; i++) {
    if (best.length === count) {
      if (values[i]! <= values[best[count - 1]!]!) continue;
      best.pop();
    }
    let at = best.length;
    while (at > 0 && values[best[at - 1]!]! < values[i]!) at--;
    best.splice(at, 0, i);
  }
  return best;
}

/** The records of the projects, ascending (listing order). */
function projectPositions(snapshot: Snapshot, projects: readonly string[]): Positions {
  return union(projects.map((project) => snapshot.filters.project(project)));
}

/**
 * Lists merged two at a time at most: past that, merging pairwise reads the first lists again for each
 * further one (a vendor names hundreds of projects), and one sort of them all costs less.
 */
const PAIRWISE_MERGES = 4;

/** The sorted union of sorted lists, by merging (each list is ascending already), or by one sort when they are many. */
function union(lists: readonly Positions[]): Positions {
  const nonEmpty = lists.filter((list) => list.length > 0);
  if (nonEmpty.length === 0) return new Int32Array(0);
  if (nonEmpty.length === 1) return nonEmpty[0]!;
  if (nonEmpty.length > PAIRWISE_MERGES) return sortedDistinct(nonEmpty);
  let merged = nonEmpty[0]!;
  for (const next of nonEmpty.slice(1)) {
    const out = new Int32Array(merged.length + next.length);
    let i = 0;
    let j = 0;
    let n = 0;
    while (i < merged.length || j < next.length) {
      const a = i < merged.length ? merged[i]! : Number.MAX_SAFE_INTEGER;
      const b = j < next.length ? next[j]! : Number.MAX_SAFE_INTEGER;
      const value = Math.min(a, b);
      if (a === value) i++;
      if (b === value) j++;
      out[n++] = value;
    }
    merged = out.subarray(0, n);
  }
  return merged;
}

/** The distinct values of the lists, ascending. */
function sortedDistinct(lists: readonly Positions[]): Positions {
  const all = new Int32Array(lists.reduce((sum, list) => sum + list.length, 0));
  let n = 0;
  for (const list of lists) {
    all.set(list, n);
    n += list.length;
  }
  all.sort();
  let kept = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[kept++] = all[i]!;
  return all.subarray(0, kept);
}

function describeWordMatch(word: string, match: WordMatch): string[] {
  const shown = match.terms.slice(0, 5).join(', ') + (match.terms.length > 5 ? ', …' : '');
  if (match.kind === 'prefix') return [`word ${word}… → ${shown}`];
  if (match.kind === 'typo') return [`word ${word} ~ ${shown} (typo)`];
  return match.terms.length > 1 ? [`word ${word} also matches ${match.terms.slice(1).join(', ')}`] : [];
}
