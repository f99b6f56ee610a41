// The best few records of a query, kept while scores are offered one by one. A query can score tens
// of thousands of records and a caller wants ten: keeping a short sorted list costs one comparison
// for nearly every offer, where collecting and sorting everything cost most of a large query's time.

export interface RankedPosition {
  /** Position of the record in listing order (see SearchIndex.entries). */
  readonly position: number;
  readonly score: number;
}

export class TopHits {
  private readonly hits: RankedPosition[] = [];
  private offers = 0;

  constructor(private readonly limit: number) {}

  /** Whether any record was offered, kept or not. */
  get empty(): boolean {
    return this.offers === 0;
  }

  /** The score a record must pass to be kept (or tie, from earlier in listing order): -Infinity until full. */
  get floor(): number {
    return this.hits.length >= this.limit && this.limit > 0 ? this.hits[this.hits.length - 1]!.score : Number.NEGATIVE_INFINITY;
  }

  /** Keeps the record if it is among the best so far; a record offered twice keeps its higher score. */
  offer(position: number, rawScore: number): void {
    this.offers++;
    const { hits } = this;
    const score = roundScore(rawScore);
    const worst = hits[hits.length - 1];
    if (hits.length >= this.limit && (this.limit <= 0 || score < worst!.score || (score === worst!.score && position > worst!.position)))
      return;
    const hit = { position, score };
    const existing = hits.findIndex((kept) => kept.position === position);
    if (existing >= 0) {
      if (!before(hit, hits[existing]!)) return;
      hits.splice(existing, 1);
    }
    let i = hits.length;
    while (i > 0 && before(hit, hits[i - 1]!)) i--;
    hits.splice(i, 0, hit);
    if (hits.length > this.limit) hits.pop();
  }

  /** Best first: higher score, then listing order, so equal scores come newest first. */
  ranked(): RankedPosition[] {
    return [...this.hits];
  }
}

function before(a: RankedPosition, b: RankedPosition): boolean {
  return a.score > b.score || (a.score === b.score && a.position < b.position);
}

/** Four decimals: enough to order by relevance, few enough that equal relevance ties and falls back to listing order. */
function roundScore(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}
