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
// Only the best few records of a query are wanted. Each term has a ceiling (its words at their highest
// scores), and once the records kept so far set a floor, records are visited by WAND: a record is visited
// only if the terms whose lists may hold it, at their ceilings and with the reward for meeting them all,
// may reach the floor (Candidates); runs of records whose blocks' maxima cannot reach it are skipped; the
// likeliest records are read first so the floor rises at once; and a record is left as soon as what its
// unread terms could add cannot lift it to the floor. The bounds are safe, so the answer is the one a full
// evaluation gives (test/core/search-bounded.test.ts), while a question of common words reads the records
// holding enough of them rather than every record holding one.
import { STATUS_CODES } from '../record-table.js';
import type { Snapshot } from '../snapshot.js';
import { projectPositions, projectPostings } from './named-postings.js';
import { describeNamedProjects, findNamedProjects, type NamedProjects, type NamingKind } from './named-projects.js';
import { type Positions, union } from './position-lists.js';
import type { QueryTerm } from './query-understanding.js';
import type { SearchIndex } from './search-index.js';
import { rarestWord, spellingsPostings, type TermPlan, TermScorer, type WordOption, wordPostings } from './term-plan.js';
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
  /**
   * Positions, ascending, holding every record `accept` may take (the shortest list of a filter, cut to
   * the years asked for), when a filter has one: records between them are not read.
   */
  readonly within?: Positions;
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

/**
 * Indexed words a question's words may stand for, shared among them: a word stretches to up to 20 by its
 * start or a typo (vocabulary.ts), and a question of 32 such words would read 640 words' records. Two
 * each at least (a word and its plural).
 */
const QUERY_EXPANSIONS = 64;

/** Cleared ids without a public record have no text; behind published records, unless status is asked. */
const NOT_PUBLIC_WEIGHT = 0.5;
const NOT_PUBLIC = STATUS_CODES.indexOf('assigned-no-public-record');

/**
 * Scores are rounded to four decimals and ties go to listing order (top-hits.ts), so a record whose
 * relevance is a little below the last kept one may still tie it once scaled and rounded, and come first.
 * A scaled score moves by at most (the text band) / (lowest word weight) times a relevance's share of
 * the best, so records within this share of the best relevance are kept as well.
 */
const TIE_SHARE = 1e-4 / (SCORE_BANDS.text * Math.min(...Object.values(WORD_WEIGHT)));
/**
 * The best relevance is known only at the end. While the likeliest records are read first, it is at most
 * what the query can score (every term at its ceiling); then it is taken as this multiple of the best
 * found in them, and should the best end above that, the records are ranked again with the best known.
 */
const TIE_GROWTH = 32;

/** Blocks of each candidate list read before the rest, and the most records read so. */
const SEED_BLOCKS = 2;
const SEED_RECORDS = 2048;

/**
 * A record's bound and its score sum the same numbers in another order, so the bound may come out a
 * rounding error below the score; it is raised by this share before it is compared.
 */
const BOUND_MARGIN = 1e-9;

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
  const stretch = Math.max(2, Math.floor(QUERY_EXPANSIONS / terms.length));
  const textPlans = terms.map((term, t) => planTerm(index, term, spelledNames.has(t), stretch, explanation));
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
    const members = projectPositions(snapshot.filters, match.projects);
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
    const found = bestByAnyWords(plans, weights, accept, setBack, limit, options.within);
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
    return [[wordOption(projectPostings(snapshot.filters, match.projects, weight.score * ceiling), weight.quality)]];
  });
  return [...plan, ...memberships];
}

/**
 * The indexed words that stand for each word of each spelling, at most `stretch` of them; a spelling
 * with an unknown word is dropped, and so is one needing a guessed word when `spelledOnly`. Spellings
 * whose every word is indexed as typed, when there are several of them or of their words, are read as
 * one list (term-plan.ts), in the place of the first of them.
 */
function planTerm(index: SearchIndex, term: QueryTerm, spelledOnly: boolean, stretch: number, explanation: string[]): TermPlan {
  const spellings = term.forms.flatMap((form, f) => {
    const matches = form.map((word) => stretched(index.vocabulary.match(word), stretch));
    if (matches.some((match) => match === undefined || (spelledOnly && match.kind !== 'exact'))) return [];
    const found = matches as WordMatch[];
    if (f === 0) explanation.push(...found.flatMap((match, w) => describeWordMatch(form[w]!, match)));
    return [found];
  });
  const exact = spellings.filter((matches) => matches.every((match) => match.kind === 'exact'));
  const oneList = exact.length > 1 || (exact[0]?.length ?? 0) > 1;
  return spellings.flatMap((matches) => {
    if (!oneList || !exact.includes(matches)) {
      return [
        matches.map((match) =>
          match.terms.flatMap((word) => wordPostings(index.text, word).map((postings) => wordOption(postings, WORD_WEIGHT[match.kind]))),
        ),
      ];
    }
    if (matches !== exact[0]) return [];
    const lists = spellingsPostings(
      index.text,
      exact.map((words) => words.map((match) => match.terms)),
    );
    return [[lists.map((postings) => wordOption(postings, WORD_WEIGHT.exact))]];
  });
}

function wordOption(postings: Postings, weight: number): WordOption {
  return { postings, bounds: new PostingsCursor(postings), weight };
}

/** The match with its most frequent `stretch` indexed words. */
function stretched(match: WordMatch | undefined, stretch: number): WordMatch | undefined {
  return match && match.terms.length > stretch ? { ...match, terms: match.terms.slice(0, stretch) } : match;
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
  within: Positions | undefined,
  knownBest?: number,
): Scored[] {
  const kept: Scored[] = [];
  if (limit <= 0) return kept;
  const scorer = new TermScorer(plans);
  const ceilings = Float64Array.from(plans, termCeiling);
  // What the best relevance is taken to be, at most (TIE_GROWTH): at first every term at its ceiling, raised
  // by the bound's margin, since a record meeting them all at their highest (a question naming a project,
  // whose records all score the naming's score) sums the same numbers in another order, and coming out a
  // rounding error above was taken for a wrong guess and ranked every record again.
  let assumedBest = knownBest ?? ceilings.reduce((sum, ceiling) => sum + ceiling, 0) * (1 + BOUND_MARGIN);
  const all = weights.reduce((sum, weight) => sum + weight, 0);
  // The reward for each count of words met (weights are whole numbers), worked out once: a power in the
  // bound of every record read was a tenth of a common-word question's time.
  const coordinations = Float64Array.from({ length: all + 1 }, (_, met) => coordination(met, all));
  // A record's quality is its weakest met term's, so at most the best weight of any term's words: when
  // every word was guessed ("wordpres", a question of typos), no record scores above that share.
  const bestQuality = Math.max(...plans.map(termQuality));
  // The most a record can reach with `score` from the terms read, meeting `met` of them, when the terms
  // left can add `rest` and weigh `weighed`, its quality at most `quality`.
  const reach = (score: number, met: number, rest: number, weighed: number, quality = bestQuality) =>
    (score + rest) * coordinations[met + weighed]! * quality * (1 + BOUND_MARGIN);
  // Terms from the highest ceiling down: a record's terms are read in this order.
  const order = plans.map((_, t) => t).sort((a, b) => ceilings[b]! - ceilings[a]! || a - b);
  // What a record must reach to be kept: the limit-th best so far, less TIE_SHARE of the best.
  let floor = 0;
  const raiseFloor = () => {
    floor = kept[limit - 1]!.key - TIE_SHARE * assumedBest;
    while (kept[kept.length - 1]!.key < floor) kept.pop();
  };
  const candidates = new Candidates(plans, order, weights, (bound, weighed) => reach(0, 0, bound, weighed) >= floor, within);
  // The terms a record met, in the terms' own order, with their scores.
  const metTerms = new Int32Array(plans.length);
  const metScores = new Float64Array(plans.length);
  // Keeps the record if it can be among the best. Its terms are `terms` (the first `count`, from the
  // highest ceiling down: every term, or those whose lists hold the record), at most at `bounds` (their
  // ceilings, or their bounds in the run the record is in); the record is left as soon as the terms
  // left cannot lift it to the floor.
  const consider = (position: number, bounds: Float64Array, terms: Int32Array, count: number) => {
    if (!accept(position)) return;
    let rest = 0;
    let weighed = 0;
    for (let i = 0; i < count; i++) {
      rest += bounds[terms[i]!]!;
      weighed += weights[terms[i]!]!;
    }
    let score = 0;
    let met = 0;
    let weakest = bestQuality;
    let metCount = 0;
    for (let i = 0; i < count; i++) {
      if (reach(score, met, rest, weighed, weakest) < floor) return;
      const t = terms[i]!;
      rest -= bounds[t]!;
      weighed -= weights[t]!;
      if (bounds[t] === 0) continue;
      const termScore = scorer.termScore(t, position);
      if (termScore === 0) continue;
      let at = metCount++;
      for (; at > 0 && metTerms[at - 1]! > t; at--) {
        metTerms[at] = metTerms[at - 1]!;
        metScores[at] = metScores[at - 1]!;
      }
      metTerms[at] = t;
      metScores[at] = termScore;
      score += termScore;
      met += weights[t]!;
      weakest = Math.min(weakest, scorer.quality);
    }
    if (score === 0) return;
    // Summed in the terms' own order, as a full evaluation sums them, so equal records score equal to the bit.
    let sum = 0;
    for (let i = 0; i < metCount; i++) sum += metScores[i]!;
    const key = sum * coordinations[met]! * weakest * (setBack(position) ? NOT_PUBLIC_WEIGHT : 1);
    if (key < floor) return;
    let at = kept.length;
    while (at > 0 && kept[at - 1]!.key < key) at--;
    kept.splice(at, 0, { position, key, quality: weakest });
    if (kept.length >= limit) raiseFloor();
  };

  // First the records of each list's blocks with the highest maxima, the likeliest to be among the best,
  // so the floor is high before the lists are walked; then every other record, in order.
  const seeds = candidates.promising();
  const everyTerm = Int32Array.from(order);
  for (const position of seeds) consider(position, ceilings, everyTerm, everyTerm.length);
  scorer.rewind();
  const guessed = knownBest === undefined && kept.length > 0;
  if (guessed) {
    assumedBest = Math.min(assumedBest, TIE_GROWTH * kept[0]!.key);
    if (kept.length >= limit) raiseFloor();
  }
  let seed = 0;
  // Records up to here lie in a run whose bound was checked and found to reach the floor; what each term
  // can add at most to a record of the run (from its blocks' maxima).
  let checkedTo = -1;
  const runBounds = new Float64Array(plans.length);
  for (let position = candidates.next(); position >= 0; position = candidates.next()) {
    while (seed < seeds.length && seeds[seed]! < position) seed++;
    if (seeds[seed] === position) continue;
    if (floor > 0 && position > checkedTo) {
      // The run to the end of the nearest block of the lists read: when the highest scores of every
      // word in the blocks it spans (text-index.ts) cannot reach the floor, none of its records is read.
      // The terms are bounded from the highest ceiling down, until those bounded may reach it: the others
      // keep their ceilings.
      const end = candidates.blockEnd(position);
      runBounds.set(ceilings);
      let bound = 0;
      let present = 0;
      let reached = false;
      for (let k = 0; k < order.length && !reached; k++) {
        const t = order[k]!;
        runBounds[t] = termBound(plans[t]!, position, end);
        if (runBounds[t] === 0) continue;
        bound += runBounds[t]!;
        present += weights[t]!;
        reached = reach(0, 0, bound, present) >= floor;
      }
      if (!reached) {
        candidates.skipPast(end);
        continue;
      }
      checkedTo = end;
    }
    consider(position, position <= checkedTo ? runBounds : ceilings, candidates.found, candidates.foundCount);
  }
  const best = kept[0]?.key ?? 0;
  if (guessed && best > assumedBest) return bestByAnyWords(plans, weights, accept, setBack, limit, within, best);
  return kept;
}

/** The highest quality a record meeting the term can have: the weight of its best word (1 for a word typed as indexed). */
function termQuality(plan: TermPlan): number {
  let best = 0;
  for (const form of plan) for (const options of form) for (const option of options) best = Math.max(best, option.weight);
  return best;
}

/** The most a term can add to any record: its best spelling's words at their highest scores. */
function termCeiling(plan: TermPlan): number {
  let best = 0;
  for (const form of plan) best = Math.max(best, spellingCeiling(form));
  return best;
}

/** The most a spelling's words can add to any record, each word at its best option's highest score. */
function spellingCeiling(form: readonly (readonly WordOption[])[]): number {
  let sum = 0;
  for (const options of form) sum += wordCeiling(options);
  return sum;
}

/** The most a word of a spelling can add to any record: its best option at its highest score. */
function wordCeiling(options: readonly WordOption[]): number {
  return Math.max(...options.map((option) => option.weight * option.postings.maxScore));
}

/**
 * The records that may meet the terms and reach the floor, ascending, each once, by WAND: a term's
 * records are among those holding the rarest word of one of its spellings, so the lists of those words
 * are read side by side, ordered by their next record. A record before the next record of the k-th list
 * can only meet the terms of the lists before it; while those terms at those lists' ceilings cannot
 * reach the floor, those lists skip to the k-th's next record. Words that many records hold are read only where
 * records holding enough of the other words are.
 */
/** The head of a list read to the end: after every position. */
const END = 2 ** 31 - 1;

class Candidates {
  private readonly lists: Int32Array[] = [];
  private readonly blockMaxima: Float32Array[] = [];
  /** The term of each list. */
  private readonly terms: number[] = [];
  /**
   * The most the term of each list can add to a record the list holds: a term's records lie in several
   * lists (each spelling's rarest word's, each of its options, a common word's outliers apart), and a
   * record outside a list with a high ceiling is bounded by the lower ceilings of the lists holding it.
   */
  private readonly ceilings: Float64Array;
  /** What each term counted in the current round adds to the bound: the highest ceiling of its lists so far. */
  private readonly added: Float64Array;
  private readonly at: Int32Array;
  /** Each list's next record (END once read to the end): kept beside `at` for the comparisons of every step. */
  private readonly heads: Int32Array;
  /** The lists by their next record; the first liveCount are not read to the end. */
  private readonly live: Int32Array;
  private liveCount: number;
  /** The terms whose lists hold the record next returned last (the first foundCount), from the highest ceiling down. */
  readonly found: Int32Array;
  foundCount = 0;
  /** Each term's place in the order of ceilings. */
  private readonly rank: Int32Array;
  /** For each term, the last round of next that counted it. */
  private readonly counted: Int32Array;
  private round = 0;
  /** Where in `within` the last record returned is, or after. */
  private withinAt = 0;

  constructor(
    plans: readonly TermPlan[],
    order: readonly number[],
    private readonly weights: readonly number[],
    /** Whether a record meeting terms that add at most `bound` and weigh `weighed` may reach the floor. */
    private readonly reaches: (bound: number, weighed: number) => boolean,
    /** The only positions a record may be taken at (RankOptions.within), or every position. */
    private readonly within?: Positions,
  ) {
    const ceilings: number[] = [];
    plans.forEach((plan, t) => {
      for (const form of plan) {
        const rarest = rarestWord(form);
        // The spelling's other words at their highest, and the rarest word at this list's.
        let others = 0;
        for (const options of form) if (options !== rarest) others += wordCeiling(options);
        for (const option of rarest) {
          if (option.postings.docs.length === 0) continue;
          this.lists.push(option.postings.docs);
          this.blockMaxima.push(option.postings.blockMax);
          this.terms.push(t);
          ceilings.push(others + option.weight * option.postings.maxScore);
        }
      }
    });
    this.ceilings = Float64Array.from(ceilings);
    this.added = new Float64Array(plans.length);
    this.at = new Int32Array(this.lists.length);
    this.found = new Int32Array(plans.length);
    this.rank = new Int32Array(plans.length);
    order.forEach((t, k) => {
      this.rank[t] = k;
    });
    this.counted = new Int32Array(plans.length);
    this.heads = Int32Array.from(this.lists, (docs) => docs[0]!);
    this.live = Int32Array.from(this.lists, (_, list) => list);
    this.liveCount = this.lists.length;
    this.refresh();
  }

  /** The next record that may reach the floor, or -1 when none is left. */
  next(): number {
    const { at, terms, within, live, heads } = this;
    for (;;) {
      // The pivot: the first list whose terms, with those of the lists before it, may reach the floor.
      let bound = 0;
      let weighed = 0;
      let pivot = -1;
      this.round++;
      for (let i = 0; i < this.liveCount; i++) {
        const list = live[i]!;
        const t = terms[list]!;
        const ceiling = this.ceilings[list]!;
        if (this.counted[t] !== this.round) {
          this.counted[t] = this.round;
          this.added[t] = ceiling;
          bound += ceiling;
          weighed += this.weights[t]!;
        } else if (ceiling > this.added[t]!) {
          bound += ceiling - this.added[t]!;
          this.added[t] = ceiling;
        } else continue;
        if (this.reaches(bound, weighed)) {
          pivot = i;
          break;
        }
      }
      if (pivot < 0) {
        this.liveCount = 0;
        return -1;
      }
      const position = heads[live[pivot]!]!;
      if (within) {
        // A record the filters refuse is not read: the lists move on to the next position they allow.
        this.withinAt = seekForward(within, this.withinAt, position);
        if (this.withinAt === within.length) {
          this.liveCount = 0;
          return -1;
        }
        const allowed = within[this.withinAt]!;
        if (allowed !== position) {
          for (let i = 0; i < this.liveCount; i++) if (heads[live[i]!]! < allowed) this.moveTo(live[i]!, allowed);
          this.refresh();
          continue;
        }
      }
      if (heads[live[0]!] === position) {
        // Every list before the pivot is at its record: it is read, with every other list holding it.
        this.round++;
        this.foundCount = 0;
        for (let i = 0; i < this.liveCount && heads[live[i]!] === position; i++) {
          const list = live[i]!;
          const docs = this.lists[list]!;
          heads[list] = ++at[list]! < docs.length ? docs[at[list]!]! : END;
          const t = terms[list]!;
          if (this.counted[t] === this.round) continue;
          this.counted[t] = this.round;
          let k = this.foundCount++;
          for (; k > 0 && this.rank[this.found[k - 1]!]! > this.rank[t]!; k--) this.found[k] = this.found[k - 1]!;
          this.found[k] = t;
        }
        this.refresh();
        return position;
      }
      for (let i = 0; i < pivot; i++) this.moveTo(live[i]!, position);
      this.refresh();
    }
  }

  /**
   * Where the run starting at `position` (the record just read) ends: the last record of the block of
   * postings the next record of some list is in, the nearest such end; `position` when no list is left.
   */
  blockEnd(position: number): number {
    let end = Number.MAX_SAFE_INTEGER;
    for (let i = 0; i < this.liveCount; i++) {
      const list = this.live[i]!;
      const docs = this.lists[list]!;
      end = Math.min(end, docs[Math.min(docs.length, (Math.floor(this.at[list]! / BLOCK) + 1) * BLOCK) - 1]!);
    }
    return end === Number.MAX_SAFE_INTEGER ? position : end;
  }

  /** Moves every list past `position`. */
  skipPast(position: number): void {
    for (let i = 0; i < this.liveCount; i++) this.moveTo(this.live[i]!, position + 1);
    this.refresh();
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

  /** Moves the list to its first record at or after `position`. */
  private moveTo(list: number, position: number): void {
    const docs = this.lists[list]!;
    const at = seekForward(docs, this.at[list]!, position);
    this.at[list] = at;
    this.heads[list] = at < docs.length ? docs[at]! : END;
  }

  /** Orders the lists by their next record again (insertion sort: the order changes little between two calls), and drops those read to the end. */
  private refresh(): void {
    const { live, heads } = this;
    for (let i = 1; i < this.liveCount; i++) {
      const list = live[i]!;
      const head = heads[list]!;
      let j = i;
      while (j > 0 && heads[live[j - 1]!]! > head) {
        live[j] = live[j - 1]!;
        j--;
      }
      live[j] = list;
    }
    while (this.liveCount > 0 && heads[live[this.liveCount - 1]!] === END) this.liveCount--;
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

function describeWordMatch(word: string, match: WordMatch): string[] {
  const shown = match.terms.slice(0, 5).join(', ') + (match.terms.length > 5 ? ', …' : '');
  if (match.kind === 'prefix') return [`word ${word}… → ${shown}`];
  if (match.kind === 'typo') return [`word ${word} ~ ${shown} (typo)`];
  return match.terms.length > 1 ? [`word ${word} also matches ${match.terms.slice(1).join(', ')}`] : [];
}
