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
import { NO_TOPIC_WORDS } from '../../../src/core/search/no-topic-words.js';
import { MAX_TERMS } from '../../../src/core/search/query-understanding.js';
import { SECURITY_TERMS } from '../../../src/core/search/security-terms.js';
import { VENDOR_PRODUCTS } from '../../../src/core/search/vendor-families.js';
import { createSnapshot, type Snapshot } from '../../../src/core/snapshot.js';
import { PATHS } from '../../../src/http/shared/paths.js';
import { buildTestApp, loadDefaultCatalog } from '../../support/app.js';

/** What a question may take at most (on a machine shared with other work: ten times what it takes alone). */
const ASK_BOUND_MS = 2000;
/** What a health check sent while the question runs may take at most. */
const HEALTH_BOUND_MS = 200;

/** The words repeated in order to the longest question the contract allows. */
function longest(words: readonly string[]): string {
  let question = words[0]!;
  for (let i = 1; `${question} ${words[i % words.length]}`.length <= MAX_QUERY_LENGTH; i++) question += ` ${words[i % words.length]}`;
  return question;
}

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
  const index = snapshot.search.get();
  const { vocabulary, text } = index;
  const common = text.words
    .filter((word) => /^[a-z]{4,}$/.test(word) && !NO_TOPIC_WORDS.has(word))
    .sort((a, b) => text.frequency(b) - text.frequency(a))
    .slice(0, 2 * MAX_TERMS);
  const prefixes = [...new Set(common.map((word) => word.slice(0, 3)))].filter((prefix) => vocabulary.match(prefix)?.kind === 'prefix');
  // The last two letters swapped: not a word of the records, but near several.
  const typos = common
    .map((word) => `${word.slice(0, -2)}${word.at(-1)}${word.at(-2)}`)
    .filter((typo) => vocabulary.match(typo)?.kind === 'typo');
  const vendors = [...VENDOR_PRODUCTS.map((entry) => entry.vendor), 'cisco', 'apache', 'linux', 'wordpress', 'dell', 'hp', 'intel'];
  return {
    'the commonest words': longest(common),
    'prefixes of the commonest words': longest(prefixes),
    'typos of the commonest words': longest(typos),
    'weakness abbreviations': longest(SECURITY_TERMS.map((term) => term.word)),
    'vendor words': longest(vendors),
    'filters that leave nothing, with common words': longest([
      'critical',
      'actively',
      'exploited',
      'cwe-1321',
      'before',
      '2001',
      'not',
      'public',
      ...common.slice(0, MAX_TERMS),
    ]),
    'time phrases': longest(['since march 2024', 'last month', 'this year', 'recent', 'past 30 days', 'in december 2024', 'before 2005']),
    identifiers: longest(Array.from({ length: 100 }, (_, i) => `CVE-2024-${10_000 + i}`)),
  };
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
