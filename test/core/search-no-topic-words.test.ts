// The words that say how a question is asked (no-topic-words.ts), the security vocabulary
// (security-terms.ts) and the vendor table (vendor-families.ts), held as lists: properties every entry
// must have, checked over the whole list rather than a few chosen cases.
import { beforeAll, describe, expect, it } from 'vitest';
import type { CatalogFile } from '../../src/contract/index.js';
import { NO_TOPIC_WORDS } from '../../src/core/search/no-topic-words.js';
import { understandQuery } from '../../src/core/search/query-understanding.js';
import { search } from '../../src/core/search/search.js';
import { SECURITY_TERMS } from '../../src/core/search/security-terms.js';
import { VENDOR_PRODUCTS } from '../../src/core/search/vendor-families.js';
import { STOP_WORDS, words } from '../../src/core/search/words.js';
import { createSnapshot, type Snapshot } from '../../src/core/snapshot.js';
import { loadDefaultCatalog } from '../support/app.js';

/** Questions whose answer no word of the list may change, each with something else to say what it is about. */
const QUESTIONS = ['openssl', 'memory corruption qualcomm', 'xss wordpress', 'critical fortinet', 'linux kernel use after free'];

describe('words that carry no topic', () => {
  let catalog: CatalogFile;
  let snapshot: Snapshot;
  beforeAll(async () => {
    catalog = await loadDefaultCatalog();
    snapshot = createSnapshot(catalog);
  }, 300_000);

  it('are single lower-case words, none a filler word already, a security term, a status, year or time word', () => {
    for (const word of NO_TOPIC_WORDS) {
      expect(words(word), word).toEqual([word]);
      expect(STOP_WORDS.has(word), word).toBe(false);
      expect(
        SECURITY_TERMS.some((term) => term.word === word || term.phrases.some((phrase) => words(phrase).includes(word))),
        word,
      ).toBe(false);
      const alone = understandQuery(`${word} openssl`, { lastVerified: '2025-01-24' });
      expect(alone.ignored, word).toContain(word);
      expect(alone.terms.map((term) => term.word)).toEqual(['openssl']);
    }
  });

  it('change no answer when added to a question that says what it is about', () => {
    for (const question of QUESTIONS) {
      const answer = search(snapshot, question, 10).hits.map((hit) => hit.entry.record.id);
      expect(answer.length, question).toBeGreaterThan(0);
      for (const word of NO_TOPIC_WORDS) {
        expect(
          search(snapshot, `${question} ${word}`, 10).hits.map((hit) => hit.entry.record.id),
          `${question} + ${word}`,
        ).toEqual(answer);
      }
    }
  });

  it('are searched when they are all a question says', () => {
    for (const word of NO_TOPIC_WORDS)
      expect(
        understandQuery(word).terms.map((term) => term.word),
        word,
      ).toEqual([word]);
  });

  it('each security term reads as words the records use, and names its weakness', () => {
    const texts = catalog.records.map((record) => new Set(words(record.summary ?? '')));
    for (const term of SECURITY_TERMS) {
      expect(term.cwes.length, term.word).toBeGreaterThan(0);
      for (const cwe of term.cwes) expect(cwe).toMatch(/^CWE-\d+$/);
      // Every phrase is found, as its words, in at least one shipped record.
      for (const phrase of term.phrases) {
        const needed = words(phrase).filter((word) => !STOP_WORDS.has(word));
        expect(
          texts.some((text) => needed.every((word) => text.has(word))),
          `${term.word}: ${phrase}`,
        ).toBe(true);
      }
    }
  });

  it('each curated vendor entry selects projects whose records name that vendor', () => {
    for (const entry of VENDOR_PRODUCTS) {
      const records = catalog.records.filter((record) => entry.names.test(record.project));
      expect(records.length, entry.vendor).toBeGreaterThan(0);
      const byVendor = records.filter((record) =>
        [record.summary ?? '', ...(record.details?.affected ?? []).map((product) => product.vendor ?? '')].some((text) =>
          text.toLowerCase().includes(entry.vendor),
        ),
      );
      expect(byVendor.length / records.length, entry.vendor).toBeGreaterThanOrEqual(0.8);
    }
  });
});
