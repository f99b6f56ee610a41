// Ranks records for the words of a query. Scores are calibrated into bands so a number means the same
// thing whatever the query: 0.9 a project named; up to 0.8 a record whose text has every word; 0.2 to
// 0.3 a named project's record when no record has every word. (1, an identifier, is search.ts's.)
import { describeNamedProjects, findNamedProjects, type NamingKind } from './named-projects.js';
import type { QueryTerm } from './query-understanding.js';
import type { SearchIndex } from './search-index.js';
import { type Postings, PostingsCursor } from './text-index.js';
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

/** An indexed word standing for a query word, with its weight; the cursor belongs to this query alone. */
interface WordOption {
  readonly postings: Postings;
  readonly cursor: PostingsCursor;
  readonly weight: number;
}

/** A query term ready to evaluate: its usable spellings, each a list of words, each a list of options. */
type TermPlan = readonly (readonly (readonly WordOption[])[])[];

/** Record positions, ascending. */
type Positions = readonly number[] | Int32Array;

/** Records evaluated against some terms: raw relevance (0 when a term is missing) and quality. */
interface Evaluated {
  readonly positions: Positions;
  readonly raw: Float64Array;
  readonly quality: Float64Array;
  readonly best: number;
}

/** The `limit` records that best meet the words, best first, with what the catalog made of the words. */
export function rankByWords(
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

  // Records with every word in their text, found from the rarest word's records.
  if (plans.every((plan) => plan.length > 0)) {
    const order = [...allTerms].sort((a, b) => estimate(plans[a]!) - estimate(plans[b]!));
    const found = evaluate(plans, order, candidates(plans[order[0]!]!), accept);
    offerScaled(top, found, (share) => SCORE_BANDS.text * share);
  }

  // Records of a named project with every other word; with no other word, all of them, newest first.
  for (const match of named) {
    const best = SCORE_BANDS.project[match.kind];
    const others = allTerms.filter((t) => !match.terms.includes(t));
    const members = projectPositions(index, match.projects);
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
    offerScaled(top, evaluate(plans, others, members, accept), (share) => best - spread + spread * share);
  }

  // No record has every word, yet the query named a project: its records are the nearest answer,
  // those with more of the other words first.
  if (top.empty && named.length > 0) {
    const members = projectPositions(index, [...new Set(named.flatMap((match) => match.projects))]);
    const raw = new Float64Array(members.length).fill(-1);
    let best = 0;
    members.forEach((position, i) => {
      if (!accept(position)) return;
      raw[i] = plans.reduce((total, plan) => total + (matchTerm(plan, position)?.score ?? 0), 0);
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
          const postings = index.postings.get(word)!;
          return { postings, cursor: new PostingsCursor(postings), weight: WORD_WEIGHT[match.kind] };
        });
      }),
    ];
  });
}

/**
 * How a record meets a term: its best spelling with every word present, scored as the sum of its
 * words, each word by its best option; quality is the weakest word's weight.
 */
function matchTerm(plan: TermPlan, position: number): { score: number; quality: number } | undefined {
  let best: { score: number; quality: number } | undefined;
  for (const form of plan) {
    let score = 0;
    let quality = 1;
    for (const options of form) {
      let wordScore = 0;
      let wordQuality = 0;
      for (const option of options) {
        const found = option.cursor.scoreAt(position);
        if (found > 0) {
          wordScore = Math.max(wordScore, option.weight * found);
          wordQuality = Math.max(wordQuality, option.weight);
        }
      }
      if (wordScore === 0) {
        score = 0;
        break;
      }
      score += wordScore;
      quality = Math.min(quality, wordQuality);
    }
    if (score > 0 && (!best || score > best.score)) best = { score, quality };
  }
  return best;
}

/**
 * Evaluates accepted records against every term of `which`. Raw relevance sums the terms; quality is
 * the weakest term's, so one guessed word lowers the whole record.
 */
function evaluate(
  plans: readonly TermPlan[],
  which: readonly number[],
  positions: Positions,
  accept: (position: number) => boolean,
): Evaluated {
  const raw = new Float64Array(positions.length);
  const quality = new Float64Array(positions.length);
  let best = 0;
  for (let i = 0; i < positions.length; i++) {
    const position = positions[i]!;
    if (!accept(position)) continue;
    let sum = 0;
    let weakest = 1;
    for (const t of which) {
      const match = matchTerm(plans[t]!, position);
      if (!match) {
        sum = 0;
        break;
      }
      sum += match.score;
      weakest = Math.min(weakest, match.quality);
    }
    raw[i] = sum;
    quality[i] = weakest;
    best = Math.max(best, sum);
  }
  return { positions, raw, quality, best };
}

/** Offers each evaluated record at `scale(share)`, where share in (0, 1] is its relevance against the best, times its quality. */
function offerScaled(top: TopHits, found: Evaluated, scale: (share: number) => number): void {
  for (let i = 0; i < found.positions.length; i++) {
    if (found.raw[i]! > 0) top.offer(found.positions[i]!, scale((found.raw[i]! / found.best) * found.quality[i]!));
  }
}

/** Records that may meet the term: those holding a first word of one of its spellings, each once, ascending. */
function candidates(plan: TermPlan): Int32Array {
  return union(plan.flatMap((form) => form[0]!.map((option) => option.postings.positions)));
}

/** The records of the projects, ascending (listing order). */
function projectPositions(index: SearchIndex, projects: readonly string[]): Positions {
  const lists = projects.map((project) => index.positionsByProject.get(project) ?? []);
  return lists.length === 1 ? lists[0]! : union(lists);
}

function union(lists: readonly Positions[]): Int32Array {
  if (lists.length === 1 && lists[0] instanceof Int32Array) return lists[0];
  const all = new Int32Array(lists.reduce((n, list) => n + list.length, 0));
  let length = 0;
  for (const list of lists) {
    all.set(list, length);
    length += list.length;
  }
  all.sort();
  let unique = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[unique++] = all[i]!;
  return all.subarray(0, unique);
}

/** How many records the rarest-first order should expect a term to bring. */
function estimate(plan: TermPlan): number {
  return plan.reduce((total, form) => total + form[0]!.reduce((n, option) => n + option.postings.positions.length, 0), 0);
}

function describeWordMatch(word: string, match: WordMatch): string[] {
  const shown = match.terms.slice(0, 5).join(', ') + (match.terms.length > 5 ? ', …' : '');
  if (match.kind === 'prefix') return [`word ${word}… → ${shown}`];
  if (match.kind === 'typo') return [`word ${word} ~ ${shown} (typo)`];
  return match.terms.length > 1 ? [`word ${word} also matches ${match.terms.slice(1).join(', ')}`] : [];
}
