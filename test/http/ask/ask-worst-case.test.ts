// The costliest questions /ask accepts, over the shipped catalog: as long as the contract allows
// (MAX_QUERY_LENGTH characters, the most answers ASK_LIMIT allows), made of what makes a question cost
// most at each place its size drives work: the words ranked (the commonest words of the records, up to
// the MAX_TERMS read), the spelling look-ups (prefixes and typos, each stretched to many indexed words),
// the weakness abbreviations (each read as several phrases), the vendor words (each naming many
// projects), filters that leave nothing (relaxed one at a time, ranking again each time), time phrases
// and identifiers. Each must answer within a bounded time, and since a search runs on the thread that
// serves every request, a health check sent while it runs must answer quickly too.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASK_LIMIT, MAX_QUERY_LENGTH } from '../../../src/contract/index.js';
import { MAX_TERMS } from '../../../src/core/search/query-understanding.js';
import { createSnapshot, type Snapshot } from '../../../src/core/snapshot.js';
import { PATHS } from '../../../src/http/shared/paths.js';
import { buildTestApp, loadDefaultCatalog } from '../../support/app.js';
import { worstQuestions as worstQuestionsOf } from '../../support/worst-questions.js';

/** What a question may take at most (on a machine shared with other work: ten times what it takes alone). */
const ASK_BOUND_MS = 2000;
/** What a health check sent while the question runs may take at most. */
const HEALTH_BOUND_MS = 200;

let app: FastifyInstance;
let baseUrl: string;
let snapshot: Snapshot;

beforeAll(async () => {
  snapshot = createSnapshot(await loadDefaultCatalog());
  app = await buildTestApp({ snapshot });
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  await snapshot.search.prepare();
}, 120_000);
afterAll(() => app.close());

/** The worst questions, from the catalog's own words. */
function worstQuestions(): Record<string, string> {
  return worstQuestionsOf(snapshot.search.get());
}

describe('the costliest questions', () => {
  it('are as long as the contract allows, and read up to the most words a question may have', () => {
    const questions = worstQuestions();
    for (const [kind, question] of Object.entries(questions)) {
      expect(question.length, kind).toBeGreaterThan(MAX_QUERY_LENGTH - 20);
      expect(question.length, kind).toBeLessThanOrEqual(MAX_QUERY_LENGTH);
    }
    expect(new Set(questions['the commonest words']!.split(' ')).size).toBeGreaterThanOrEqual(MAX_TERMS);
    expect(new Set(questions['prefixes of the commonest words']!.split(' ')).size).toBeGreaterThanOrEqual(MAX_TERMS / 2);
    expect(new Set(questions['typos of the commonest words']!.split(' ')).size).toBeGreaterThanOrEqual(MAX_TERMS / 2);
  });

  it('each answer in bounded time, while a health check sent meanwhile answers quickly', async () => {
    const questions = Object.entries(worstQuestions());
    const urlOf = (question: string) => `${baseUrl}${PATHS.ask}?query=${encodeURIComponent(question)}&limit=${ASK_LIMIT.max}`;
    // Timed once the server is warm: the first questions also compile the code that answers them.
    for (const [, question] of questions) await (await fetch(urlOf(question))).arrayBuffer();
    for (const [kind, question] of questions) {
      const url = urlOf(question);
      const started = performance.now();
      const asked = fetch(url).then(async (response) => {
        await response.arrayBuffer();
        return { status: response.status, ms: performance.now() - started };
      });
      // Sent once the question is on its way: the server reads it after the question, while or after it is searched.
      await new Promise((resolve) => setTimeout(resolve, 1));
      const healthStarted = performance.now();
      const health = await fetch(`${baseUrl}${PATHS.health}`);
      await health.arrayBuffer();
      const healthMs = performance.now() - healthStarted;
      const answer = await asked;
      expect(answer.status, kind).toBe(200);
      expect(health.status, kind).toBe(200);
      expect(answer.ms, kind).toBeLessThan(ASK_BOUND_MS);
      expect(healthMs, kind).toBeLessThan(HEALTH_BOUND_MS);
    }
  }, 120_000);
});
