// Ranks records for the words of a query. Scores are calibrated into bands so a number means the same
// thing whatever the query: 0.9 a project named; up to 0.8 a record whose text has every word; 0.2 to
// 0.3 a named project's record when no record has every word. (1, an identifier, is search.ts's.)
//
// Only the best few records of a query are wanted, so records are evaluated in chunks, and a chunk whose
// best possible score (from the highest score of each word in the blocks the chunk spans, text-index.ts)
// cannot reach the records kept so far is skipped unread. The bound is safe: the answer is the one a
// full evaluation gives, and a query matching most records costs about what a rare one does.
import type { Snapshot } from '../snapshot.js';
import { describeNamedProjects, findNamedProjects, type NamingKind } from './named-projects.js';
import type { QueryTerm } from './query-understanding.js';
import type { SearchIndex } from './search-index.js';
import { type Postings, PostingsCursor, seekForward } from './text-index.js';
import { type RankedPosition, TopHits } from './top-hits.js';
import type { WordMatch, WordMatchKind } from './vocabulary.js';

export interface Ranking {
  readonly ranked: readonly RankedPosition[];
  readonly explanation: readonly string[];
}

/**
 * Top of each band. A named project's records that also have the other words spread over the 0.1
 * below the top, by text relevance; a record found by text alone is scaled into (0, text].
 */
const SCORE_BANDS = {
  project: { exact: 0.9, alias: 0.9, prefix: 0.75, typo: 0.7 } satisfies Record<NamingKind, number>,
  projectSpread: 0.1,
  text: 0.8,
  fallback: { low: 0.2, high: 0.3 },
} as const;

/**
 * What a word found through its start or a typo is worth next to the word itself. Applied twice on
 * purpose: to the word's BM25, so such words weigh less against typed ones, and to the final score,
 * so a record found only by guessing never scores like one found by the words typed.
 */
const WORD_WEIGHT: Record<WordMatchKind, number> = { exact: 1, prefix: 0.6, typo: 0.5 };

/** Records evaluated between two checks of the bound: one block's worth of a word's postings. */
const CHUNK = 64;
/**
 * Scores are rounded to four decimals and ties go to listing order (top-hits.ts), so a record whose
 * relevance is a little below the last kept one may still tie it once scaled and rounded, and come first.
 * A scaled score moves by at most (narrowest band) / (lowest word weight) times a relevance's share of
 * the best, so records within this share of the most a query can score are kept as well.
 */
const TIE_SHARE = 1e-4 / (SCORE_BANDS.projectSpread * Math.min(...Object.values(WORD_WEIGHT)));

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
): Ranking {
  const named = findNamedProjects(index, terms);
  const explanation = named.map((match) => describeNamedProjects(match, terms));
  // A word that names a project as spelled is explained; guessing other words for it only adds noise
  // ("nodejs" names Node.js, and is no typo of "nodes").
  const spelledNames = new Set(named.flatMap((match) => (match.kind === 'exact' || match.kind === 'alias' ? match.terms : [])));
  const plans = terms.map((term, t) => planTerm(index, term, spelledNames.has(t), explanation));
  const namedTerms = new Set(named.flatMap((match) => match.terms));
  const unknown = terms.filter((_, t) => plans[t]!.length === 0 && !namedTerms.has(t));
  if (unknown.length > 0) {
    return { ranked: [], explanation: [...explanation, ...unknown.map((term) => `nothing matches "${term.word}"`)] };
  }
  const top = new TopHits(limit);
  const allTerms = plans.map((_, t) => t);

  // Records of a named project with every other word; with no other word, all of them, newest first.
  for (const match of named) {
    const best = SCORE_BANDS.project[match.kind];
    const others = allTerms.filter((t) => !match.terms.includes(t));
    const members = projectPositions(snapshot, match.projects);
    if (others.length === 0) {
      // All score the same, so past the first `limit` accepted in listing order none can be kept.
      let kept = 0;
      for (let i = 0; i < members.length && kept < limit; i++) {
        if (accept(members[i]!)) {
          top.offer(members[i]!, best);
          kept++;
        }
      }
      continue;
    }
    const spread = SCORE_BANDS.projectSpread;
    offerScaled(top, bestByWords(plans, others, members, accept, limit), (share) => best - spread + spread * share);
  }

  // Records with every word in their text, found from the rarest word's records. They score at most
  // the text band, so when named projects' records already fill the answer above it ("linux kernel"
  // names Linux, with thousands of records) reading every record with the words changes nothing.
  if (plans.every((plan) => plan.length > 0) && top.floor <= SCORE_BANDS.text) {
    const order = [...allTerms].sort((a, b) => estimate(plans[a]!) - estimate(plans[b]!));
    const found = bestByWords(plans, order, candidates(plans[order[0]!]!), accept, limit);
    offerScaled(top, found, (share) => SCORE_BANDS.text * share);
  }

  // No record has every word, yet the query named a project: its records are the nearest answer,
  // those with more of the other words first.
  if (top.empty && named.length > 0) {
    const members = projectPositions(snapshot, [...new Set(named.flatMap((match) => match.projects))]);
    const raw = new Float64Array(members.length).fill(-1);
    // One scorer per term: a record counts what it meets of each, not only all or nothing.
    const scorers = plans.map((plan) => new TermScorer([plan]));
    let best = 0;
    members.forEach((position, i) => {
      if (!accept(position)) return;
      raw[i] = scorers.reduce((total, scorer) => total + scorer.scoreAt(position), 0);
      best = Math.max(best, raw[i]!);
    });
    const { low, high } = SCORE_BANDS.fallback;
    members.forEach((position, i) => {
      if (raw[i]! >= 0) top.offer(position, low + (high - low) * (best > 0 ? raw[i]! / best : 0));
    });
    if (!top.empty) explanation.push('no record has every word: showing the named projects’ records');
  }

  return { ranked: top.ranked(), explanation };
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

/** A record's relevance to some terms: raw relevance times quality, the weakest term's quality. */
interface Scored {
  readonly position: number;
  readonly key: number;
  readonly quality: number;
}

/**
 * The `limit` accepted records of `positions` that best meet every term of `which`, by relevance times
 * quality (best first, then listing order), and any that may tie the last of them once scaled and
 * rounded (TIE_SHARE). Chunks whose bound cannot reach the last kept are skipped.
 */
function bestByWords(
  plans: readonly TermPlan[],
  which: readonly number[],
  positions: Positions,
  accept: (position: number) => boolean,
  limit: number,
): Scored[] {
  const kept: Scored[] = [];
  if (limit <= 0) return kept;
  const scorer = new TermScorer(which.map((t) => plans[t]!));
  const slack = TIE_SHARE * which.reduce((sum, t) => sum + termCeiling(plans[t]!), 0);
  // What a record must reach to be kept: within the slack of the limit-th best so far.
  const floor = () => (kept.length < limit ? 0 : kept[limit - 1]!.key - slack);
  for (let start = 0; start < positions.length; start += CHUNK) {
    const end = Math.min(start + CHUNK, positions.length) - 1;
    if (kept.length >= limit) {
      let bound = 0;
      for (const t of which) {
        const term = termBound(plans[t]!, positions[start]!, positions[end]!);
        if (term === 0) {
          bound = 0;
          break;
        }
        bound += term;
      }
      if (bound < floor()) continue;
    }
    for (let i = start; i <= end; i++) {
      const position = positions[i]!;
      if (!accept(position)) continue;
      const sum = scorer.scoreAt(position);
      if (sum === 0) continue;
      const weakest = scorer.quality;
      const key = sum * weakest;
      if (key < floor()) continue;
      let at = kept.length;
      while (at > 0 && kept[at - 1]!.key < key) at--;
      kept.splice(at, 0, { position, key, quality: weakest });
      while (kept.length > limit && kept[kept.length - 1]!.key < floor()) kept.pop();
    }
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
 * Scores records against terms, records in ascending order: every option's postings are read with a
 * plain index that only moves forward, the hottest loop of a search. A term is met by its best spelling
 * that has every word, each word scored by its best option.
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
  /** The weakest word's weight of the last record scoreAt met. */
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

  /** The summed score of the terms when the record meets every one, else 0; sets quality. */
  scoreAt(position: number): number {
    const { docs, scores, weights, at, formStarts, wordStarts, optionStarts } = this;
    let sum = 0;
    let weakest = 1;
    for (let t = 0; t + 1 < formStarts.length; t++) {
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
      if (best === 0) return 0;
      sum += best;
      weakest = Math.min(weakest, bestQuality);
    }
    this.quality = weakest;
    return sum;
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

/** Records that may meet the term: those holding a first word of one of its spellings, each once, ascending. */
function candidates(plan: TermPlan): Positions {
  return union(plan.flatMap((form) => form[0]!.map((option) => option.postings.docs)));
}

/** The records of the projects, ascending (listing order). */
function projectPositions(snapshot: Snapshot, projects: readonly string[]): Positions {
  return union(projects.map((project) => snapshot.filters.project(project)));
}

/** The sorted union of sorted lists, by merging (each list is ascending already). */
function union(lists: readonly Positions[]): Positions {
  const nonEmpty = lists.filter((list) => list.length > 0);
  if (nonEmpty.length === 0) return new Int32Array(0);
  if (nonEmpty.length === 1) return nonEmpty[0]!;
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

/** How many records the rarest-first order should expect a term to bring. */
function estimate(plan: TermPlan): number {
  return plan.reduce((total, form) => total + form[0]!.reduce((n, option) => n + option.postings.docs.length, 0), 0);
}

function describeWordMatch(word: string, match: WordMatch): string[] {
  const shown = match.terms.slice(0, 5).join(', ') + (match.terms.length > 5 ? ', …' : '');
  if (match.kind === 'prefix') return [`word ${word}… → ${shown}`];
  if (match.kind === 'typo') return [`word ${word} ~ ${shown} (typo)`];
  return match.terms.length > 1 ? [`word ${word} also matches ${match.terms.slice(1).join(', ')}`] : [];
}
