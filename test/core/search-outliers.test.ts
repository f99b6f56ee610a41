// A common word's list is bounded as two (term-plan.ts, outliersApart): the whole list, its block maxima
// and highest score taken without its outliers, and the outliers as a list of their own. Ranking stays
// exact only if every posting is bounded by one of the two: a property over lists of any length and spread
// of scores. On the shipped data, the outliers are what they are meant to be: the records naming the word
// in their project. (That ranking with these bounds answers as a full evaluation does is
// search-bounded.test.ts's.)
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { outliersApart, wordPostings } from '../../src/core/search/term-plan.js';
import { BLOCK, highestOf, type Postings, type StoredTextIndex } from '../../src/core/search/text-index.js';
import { createSnapshot } from '../../src/core/snapshot.js';
import { loadDefaultCatalog } from '../support/app.js';

/** A list as an index holds it: ascending positions, float32 scores, each block's maximum. */
function postingsOf(entries: ReadonlyArray<readonly [number, number]>): Postings {
  const sorted = [...new Map(entries.map(([doc, score]) => [doc, score])).entries()].sort((a, b) => a[0] - b[0]);
  const docs = Int32Array.from(sorted, ([doc]) => doc);
  const scores = Float32Array.from(sorted, ([, score]) => score);
  const blockMax = Float32Array.from({ length: Math.ceil(scores.length / BLOCK) }, (_, block) =>
    highestOf(scores, block * BLOCK, Math.min(scores.length, (block + 1) * BLOCK)),
  );
  return { docs, scores, blockMax, maxScore: highestOf(blockMax) };
}

/** Scores as summaries give them, with now and then one as a project name gives it. */
const score = fc.oneof(
  { arbitrary: fc.float({ min: Math.fround(0.5), max: Math.fround(6), noNaN: true }), weight: 20 },
  { arbitrary: fc.float({ min: Math.fround(6), max: Math.fround(60), noNaN: true }), weight: 1 },
);

describe('a list with its outliers apart', () => {
  it('bounds every posting: by the whole list’s blocks, or as an outlier by the outliers’ list', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(100_000), score), { maxLength: 1500, size: 'max' }), (entries) => {
        const postings = postingsOf(entries);
        const lists = outliersApart(postings);
        if (lists.length === 1) {
          expect(lists[0]).toBe(postings);
          return;
        }
        const [rest, outliers] = lists as [Postings, Postings];
        expect(rest.docs).toBe(postings.docs);
        expect(rest.scores).toBe(postings.scores);
        expect(rest.blockMax.length).toBe(postings.blockMax.length);
        expect(outliers.docs.length).toBeGreaterThan(0);
        expect(outliers.maxScore).toBe(postings.maxScore);
        expect(rest.maxScore).toBe(highestOf(rest.blockMax));
        expect(outliers.maxScore).toBe(highestOf(outliers.blockMax));
        const outlierAt = new Map<number, number>();
        outliers.docs.forEach((doc, i) => {
          if (i > 0) expect(doc).toBeGreaterThan(outliers.docs[i - 1]!);
          expect(outliers.scores[i]).toBeLessThanOrEqual(outliers.blockMax[Math.floor(i / BLOCK)]!);
          outlierAt.set(doc, outliers.scores[i]!);
        });
        let restHighest = 0;
        postings.docs.forEach((doc, i) => {
          const value = postings.scores[i]!;
          const outlier = outlierAt.get(doc);
          if (outlier !== undefined) {
            expect(outlier).toBe(value);
            // Every outlier stands above every posting left in the whole list's bounds.
            expect(value).toBeGreaterThan(rest.maxScore);
          } else {
            expect(value).toBeLessThanOrEqual(rest.blockMax[Math.floor(i / BLOCK)]!);
            restHighest = Math.max(restHighest, value);
          }
        });
        // The bounds are the rest's own highest, not looser.
        expect(rest.maxScore).toBe(restHighest);
      }),
      // A failing list of a thousand postings takes minutes to shrink: the first one found is shown as it is.
      { numRuns: 200, endOnFailure: true },
    );
  });

  describe('on the shipped data', () => {
    let text: StoredTextIndex;
    beforeAll(async () => {
      text = createSnapshot(await loadDefaultCatalog()).search.get().text as StoredTextIndex;
    });

    it('are the records naming a common word in their project, and are made once', () => {
      for (const word of ['remote', 'code', 'plugin', 'wordpress', 'site', 'scripting']) {
        const lists = wordPostings(text, word);
        expect(lists, word).toHaveLength(2);
        const term = text.term(word)!;
        const { starts, docs, counts } = text.data;
        const inProject: number[] = [];
        for (let i = starts[term]!; i < starts[term + 1]!; i++) if (counts[i]! >> 8 > 0) inProject.push(docs[i]!);
        expect([...lists[1]!.docs], word).toEqual(inProject);
        expect(wordPostings(text, word)).toBe(lists);
      }
    });
  });
});
