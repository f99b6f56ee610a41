// The costliest questions /ask accepts over a catalog, from its own words: as long as the contract allows
// (MAX_QUERY_LENGTH characters), made of what makes a question cost most at each place its size drives
// work: the words ranked (the commonest words of the records, up to the MAX_TERMS read), the spelling
// look-ups (prefixes and typos, each stretched to many indexed words), the weakness abbreviations (each
// read as several phrases), the vendor words (each naming many projects), filters that leave nothing
// (relaxed one at a time, ranking again each time), time phrases, identifiers and a version. Shared by the
// worst-case test (test/http/ask/ask-worst-case.test.ts) and `npx tsx bench/run.ts ask-ranking`.
import { MAX_QUERY_LENGTH } from '../../src/contract/index.js';
import { NO_TOPIC_WORDS } from '../../src/core/search/no-topic-words.js';
import { MAX_TERMS } from '../../src/core/search/query-understanding.js';
import type { SearchIndex } from '../../src/core/search/search-index.js';
import { SECURITY_TERMS } from '../../src/core/search/security-terms.js';
import { VENDOR_PRODUCTS } from '../../src/core/search/vendor-families.js';

/** The words repeated in order to the longest question the contract allows. */
export function longest(words: readonly string[]): string {
  let question = words[0]!;
  for (let i = 1; `${question} ${words[i % words.length]}`.length <= MAX_QUERY_LENGTH; i++) question += ` ${words[i % words.length]}`;
  return question;
}

/** The worst questions, by kind, from the words of the catalog `index` was built from. */
export function worstQuestions(index: SearchIndex): Record<string, string> {
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
    // A version of a form the range index leaves to the record-by-record check, beside the largest projects
    // (at most 8 are checked, in steps).
    'a version beside the largest projects': longest([
      '0.0.1-rc1',
      'linux',
      'kernel',
      'wordpress',
      'windows',
      'android',
      'chrome',
      'openssl',
      'jenkins',
      'php',
    ]),
  };
}
