// Ranking reads only what can change the best few (ranking.ts: MaxScore over term ceilings, runs of
// postings skipped by their blocks' maxima, the likeliest blocks read first); asking for every record
// skips nothing, since the floor stays at zero until that many are kept. So the first answers of a
// bounded search must be, record for record and score for score, those of a full evaluation: over the
// questions /ask is timed with (the realistic queries and the judged set), and over questions made of
// words drawn from what people type, common words and vendors most (where bounds prune most).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { REALISTIC_QUERIES } from '../../bench/corpus-figures.js';
import { search } from '../../src/core/search/search.js';
import { createSnapshot, type Snapshot } from '../../src/core/snapshot.js';
import { loadDefaultCatalog } from '../support/app.js';
import { readJudgedQuestions } from '../support/judged-questions.js';

/** The first `limit` answers, as ids and scores. */
function firstAnswers(snapshot: Snapshot, question: string, limit: number): Array<[string, number]> {
  return search(snapshot, question, limit).hits.map((hit) => [hit.entry.record.id, hit.score]);
}

/** The first `limit` answers of a full evaluation: every record asked for, so none is skipped. */
function exhaustiveAnswers(snapshot: Snapshot, question: string, limit: number): Array<[string, number]> {
  return firstAnswers(snapshot, question, snapshot.size).slice(0, limit);
}

/**
 * Words questions are made of: the commonest words of summaries, weakness phrases and abbreviations,
 * vendors and projects, filter words, a prefix and a typo.
 */
const WORDS = [
  'allows',
  'remote',
  'attackers',
  'execute',
  'arbitrary',
  'code',
  'vulnerability',
  'denial',
  'service',
  'memory',
  'buffer',
  'overflow',
  'injection',
  'sql',
  'cross-site',
  'scripting',
  'authentication',
  'bypass',
  'privilege',
  'escalation',
  'information',
  'disclosure',
  'use-after-free',
  'plugin',
  'wordpress',
  'linux',
  'kernel',
  'cisco',
  'microsoft',
  'windows',
  'apache',
  'oracle',
  'openssl',
  'curl',
  'rce',
  'xss',
  'dos',
  'lpe',
  'critical',
  'exploited',
  '2023',
  'wordpres',
  'kubernets',
  'php',
];

describe('bounded ranking', () => {
  let shipped: Snapshot;
  beforeAll(async () => {
    shipped = createSnapshot(await loadDefaultCatalog());
  });

  it('answers every timed question as a full evaluation does', () => {
    const questions = [...REALISTIC_QUERIES, ...readJudgedQuestions().map((judged) => judged.question)];
    for (const question of questions) {
      expect(firstAnswers(shipped, question, 10), question).toEqual(exhaustiveAnswers(shipped, question, 10));
    }
  }, 300_000);

  it('answers questions of common words, vendors and weaknesses as a full evaluation does, at any limit', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 30 }), (words, limit) => {
        const question = words.join(' ');
        expect(firstAnswers(shipped, question, limit), question).toEqual(exhaustiveAnswers(shipped, question, limit));
      }),
      { numRuns: 200 },
    );
  }, 300_000);
});
