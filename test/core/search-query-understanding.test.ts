// The query parser, rule by rule, and properties that hold for any input.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { CVE_ID_REGEX, SEVERITIES } from '../../src/contract/index.js';
import { PROJECT_ALIASES } from '../../src/core/search/project-aliases.js';
import { MAX_TERMS, type QueryUnderstanding, understandQuery } from '../../src/core/search/query-understanding.js';
import { STOP_WORDS, words } from '../../src/core/search/words.js';
import { loadDefaultCatalog } from '../support/app.js';

const termWords = (u: QueryUnderstanding) => u.terms.map((term) => term.word);

describe('identifiers', () => {
  it.each([
    ['CVE-2024-3094'],
    ['cve-2024-3094'],
    ['cve 2024 3094'],
    ['CVE_2024_3094'],
    ['cve2024-3094'],
    ['2024-3094'],
    ['2024_3094'],
    ['CVE‐2024‐3094'], // U+2010 hyphens
    ['what is (CVE-2024-3094)?'],
  ])('reads %s as CVE-2024-3094', (query) => {
    const u = understandQuery(query);
    expect(u.ids).toEqual(['CVE-2024-3094']);
    expect(u.explanation).toContain('id CVE-2024-3094');
    expect(u.years).toBeUndefined();
  });

  it('keeps every identifier once, in the order written', () => {
    expect(understandQuery('2021-44228 CVE-2024-3094 cve 2021 44228').ids).toEqual(['CVE-2021-44228', 'CVE-2024-3094']);
  });

  it('keeps long sequence numbers whole', () => {
    expect(understandQuery('CVE-2019-1010023').ids).toEqual(['CVE-2019-1010023']);
  });

  it('does not take two years side by side, or a short number, for an identifier', () => {
    const u = understandQuery('2019 2020');
    expect(u.ids).toEqual([]);
    expect(u.years).toEqual({ from: 2019, to: 2020 });
    expect(understandQuery('cve-2024-123').ids).toEqual([]);
  });

  it('does not cut an identifier out of a longer token', () => {
    expect(understandQuery('CVE-2024-3094x').ids).toEqual([]);
    expect(understandQuery('v2024-3094').ids).toEqual([]);
  });
});

describe('status words', () => {
  it.each(['public', 'published', 'disclosed', 'Public records'])('%s asks for public records', (query) => {
    const u = understandQuery(query);
    expect(u.statuses).toEqual(['public']);
    expect(u.explanation).toContain('status public');
    expect(u.terms).toEqual([]);
  });

  it.each([
    'assigned',
    'reserved',
    'unpublished',
    'not yet public',
    'not public',
    'not public yet',
    'no public record',
    'not published',
    'not disclosed',
  ])('%s asks for records with no public record yet', (query) => {
    const u = understandQuery(query);
    expect(u.statuses).toEqual(['assigned-no-public-record']);
    expect(u.explanation).toContain('status assigned-no-public-record');
    expect(u.terms).toEqual([]);
  });

  it('reads the negation with its status word, leaving the other words', () => {
    const u = understandQuery('which postgres issues are not public yet');
    expect(u.statuses).toEqual(['assigned-no-public-record']);
    expect(termWords(u)).toEqual(['postgres']);
    expect(u.ignored).toEqual(['which', 'issues', 'are']);
  });

  it('keeps both statuses when both are named', () => {
    expect(understandQuery('public or assigned').statuses).toEqual(['public', 'assigned-no-public-record']);
  });
});

describe('severity, exploitation and weakness words', () => {
  it.each([
    ['critical', ['critical']],
    ['critical openssl', ['critical']],
    ['high severity', ['high']],
    ['severity: medium or low', ['medium', 'low']],
    ['critical or high', ['critical', 'high']],
    ['rated important', ['high']],
    ['moderate risk', ['medium']],
  ])('reads "%s" as severities %j', (query, severities) => {
    const u = understandQuery(query);
    expect(u.severities).toEqual(severities);
    expect(u.explanation).toContain(`severity ${severities.join(' or ')}`);
    expect(termWords(u)).not.toContain('critical');
  });

  it("reads a question about a record's severity or score as a look-up of the record, not a word to find", () => {
    for (const query of ['what is the severity of CVE-2024-6119', 'CVE-2024-6119 cvss score']) {
      const u = understandQuery(query);
      expect(u.ids).toEqual(['CVE-2024-6119']);
      expect(u.terms).toEqual([]);
      expect(u.severities).toBeUndefined();
    }
  });

  it('leaves "high", "low" and "medium" alone as ordinary words', () => {
    for (const query of ['high cpu usage', 'low memory', 'medium']) {
      const u = understandQuery(query);
      expect(u.severities).toBeUndefined();
      expect(termWords(u)).toEqual(words(query));
    }
  });

  it.each([
    ['cvss 9', ['critical'], 'cvss >= 9'],
    ['CVSS >= 7.5', ['critical', 'high'], 'cvss >= 7.5'],
    ['cvss score above 4', ['critical', 'high', 'medium'], 'cvss >= 4'],
    ['cvss 9+ linux', ['critical'], 'cvss >= 9'],
    ['cvss 0', ['critical', 'high', 'medium', 'low', 'none'], 'cvss >= 0'],
  ])('reads "%s" as the severity bands reaching the score', (query, severities, bound) => {
    const u = understandQuery(query);
    expect(u.severities).toEqual(severities);
    expect(u.explanation.some((line) => line.startsWith(`${bound} → severity ${severities.join(' or ')}`))).toBe(true);
    expect(u.terms.every((term) => !/^\d+$/.test(term.word))).toBe(true);
  });

  it('keeps only the named severities a CVSS bound reaches, and says when none does', () => {
    expect(understandQuery('high or medium severity cvss 7').severities).toEqual(['high']);
    const none = understandQuery('cvss 9 medium severity');
    expect(none.severities).toEqual([]);
    expect(none.explanation.join('; ')).toContain('no severity fits');
  });

  it('does not read a pasted CVSS vector, or a number after "cvss" that is no score, as a bound', () => {
    expect(understandQuery('CVSS:3.1/AV:N/AC:L').severities).toBeUndefined();
    expect(understandQuery('cvss 2019').severities).toBeUndefined();
    expect(understandQuery('cvss 11').severities).toBeUndefined();
  });

  it.each([
    ['kev', true],
    ['in KEV', true],
    ['in the CISA KEV catalog', true],
    ['actively exploited', true],
    ['known exploited vulnerabilities', true],
    ['exploited in the wild', true],
    ['not in kev', false],
    ['not exploited', false],
    ['never exploited', false],
  ])('reads "%s" as kev %s', (query, kev) => {
    const u = understandQuery(query);
    expect(u.kev).toBe(kev);
    expect(u.explanation).toContain(kev ? 'known exploited (in CISA KEV)' : 'not known exploited (not in CISA KEV)');
    expect(termWords(u)).toEqual([]);
  });

  it('leaves "exploit" and "exploitable" to the words, and keeps a status negation a status', () => {
    expect(understandQuery('exploit').kev).toBeUndefined();
    expect(understandQuery('remotely exploitable').kev).toBeUndefined();
    const u = understandQuery('not public');
    expect(u.kev).toBeUndefined();
    expect(u.statuses).toEqual(['assigned-no-public-record']);
  });

  it.each(['CWE-79', 'cwe 79', 'cwe_79', 'cwe79', 'CWE-079'])('reads %s as CWE-79', (query) => {
    const u = understandQuery(query);
    expect(u.cwes).toEqual(['CWE-79']);
    expect(u.explanation).toContain('weakness CWE-79');
    expect(termWords(u)).toEqual([]);
  });

  it('keeps several CWE ids, once each, beside the other words', () => {
    const u = understandQuery('cwe-79 or CWE-89 wordpress cwe 79 critical exploited 2024');
    expect(u.cwes).toEqual(['CWE-79', 'CWE-89']);
    expect(u.severities).toEqual(['critical']);
    expect(u.kev).toBe(true);
    expect(u.years).toEqual({ from: 2024, to: 2024 });
    expect(termWords(u)).toEqual(['wordpress']);
  });
});

describe('years', () => {
  it.each([
    ['2024', { from: 2024, to: 2024 }, 'year = 2024'],
    ['in 2019', { from: 2019, to: 2019 }, 'year = 2019'],
    // "from 2023" alone is that year ("linux bugs from 2023"); a bound only as the start of a range.
    ['from 2023', { from: 2023, to: 2023 }, 'year = 2023'],
    ['since 2022', { from: 2022, to: undefined }, 'year >= 2022'],
    ['after 2021', { from: 2022, to: undefined }, 'year >= 2022'],
    ['before 2020', { from: undefined, to: 2019 }, 'year <= 2019'],
    ['until 2020', { from: undefined, to: 2020 }, 'year <= 2020'],
    ['from 2020 to 2022', { from: 2020, to: 2022 }, 'year 2020 to 2022'],
    ['2020 to 2022', { from: 2020, to: 2022 }, 'year 2020 to 2022'],
    ['between 2022 and 2020', { from: 2020, to: 2022 }, 'year 2020 to 2022'],
    ['since 2020 before 2023', { from: 2020, to: 2022 }, 'year 2020 to 2022'],
  ])('%s', (query, years, line) => {
    const u = understandQuery(query);
    expect(u.years).toEqual(years);
    expect(u.explanation).toContain(line);
    expect(u.terms).toEqual([]);
  });

  it('says so when the bounds leave no year', () => {
    const u = understandQuery('after 2023 before 2020');
    expect(u.years).toEqual({ from: 2024, to: 2019 });
    expect(u.explanation).toContain('year >= 2024 and <= 2019: no year fits');
  });

  it('leaves numbers that cannot be CVE years as words', () => {
    const u = understandQuery('windows 10 version 1809');
    expect(u.years).toBeUndefined();
    expect(termWords(u)).toEqual(['windows', '10', 'version', '1809']);
  });

  it('does not read "after" as a year word unless a year follows', () => {
    const u = understandQuery('use after free since 2023');
    expect(termWords(u)).toEqual(['use', 'after', 'free']);
    expect(u.years).toEqual({ from: 2023, to: undefined });
  });
});

describe('filler and aliases', () => {
  it('drops filler words and lists them', () => {
    const u = understandQuery('Show me the vulnerabilities of curl with any bugs');
    expect(termWords(u)).toEqual(['curl']);
    expect(u.explanation).toContain('ignored show, me, the, vulnerabilities, of, with, any, bugs');
    expect(u.explanation).toContain('words curl');
  });

  it.each([
    ['records assigned but not yet public', []],
    ['which records were published and when', []],
    ['who could be affected by this, and why would it be known', ['affected']],
    ['what are those openssl issues that you know', ['openssl', 'know']],
  ])('never requires a question or function word: %s', (query, searched) => {
    expect(termWords(understandQuery(query))).toEqual(searched);
  });

  it('keeps the words that name something in a record: can (Linux CAN bus), so, after', () => {
    expect(termWords(understandQuery('can bus use after free in libfoo so'))).toEqual([
      'can',
      'bus',
      'use',
      'after',
      'free',
      'libfoo',
      'so',
    ]);
  });

  it('reads project aliases, keeping the word typed as one spelling', () => {
    const u = understandQuery('postgres k8s');
    expect(u.terms.map((term) => term.forms)).toEqual([
      [['postgres'], ['postgresql']],
      [['k8s'], ['kubernetes']],
    ]);
    expect(u.explanation).toEqual(['alias postgres → PostgreSQL', 'alias k8s → Kubernetes', 'words postgres, k8s']);
  });

  it('splits words as the index does', () => {
    expect(words('Node.js use-after-free in libxml2!')).toEqual(['node', 'js', 'use', 'after', 'free', 'in', 'libxml2']);
    expect(termWords(understandQuery('Node.js use-after-free'))).toEqual(['node', 'js', 'use', 'after', 'free']);
  });

  it(`searches at most ${MAX_TERMS} words`, () => {
    const u = understandQuery(Array.from({ length: MAX_TERMS + 5 }, (_, i) => `word${i}`).join(' '));
    expect(u.terms).toHaveLength(MAX_TERMS);
    expect(u.explanation).toContain(`only the first ${MAX_TERMS} words are searched`);
  });

  it('reads the default /ask phrase as the public status and nothing else', () => {
    const u = understandQuery('public CVE records');
    expect(u).toMatchObject({ ids: [], statuses: ['public'], years: undefined, terms: [] });
  });

  describe('against the shipped catalog', () => {
    let projectWords: Set<string>;
    beforeAll(async () => {
      const catalog = await loadDefaultCatalog();
      projectWords = new Set(catalog.records.flatMap((record) => [words(record.project).join(' '), ...words(record.project)]));
    });

    it.each(PROJECT_ALIASES)('alias $alias leads to a project of the catalog ($target)', ({ alias, target }) => {
      const targetWords = words(target)
        .filter((word) => !STOP_WORDS.has(word))
        .join(' ');
      expect(projectWords.has(words(target).join(' ')) || projectWords.has(targetWords)).toBe(true);
      expect(STOP_WORDS.has(alias)).toBe(false);
    });
  });
});

describe('properties', () => {
  const anyText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc
      .array(
        fc.constantFrom(
          'cve',
          'CVE-2024-3094',
          '2024',
          'from',
          'before',
          'not',
          'yet',
          'public',
          'between',
          'and',
          'to',
          '-',
          '_',
          'postgres',
          'in',
          'critical',
          'high',
          'severity',
          'cvss',
          '7.5',
          'kev',
          'exploited',
          'cwe-79',
          '9999',
          '1998',
          ' ',
        ),
        { maxLength: 20 },
      )
      .map((parts) => parts.join(' ')),
  );

  it('never throws, and reads the same text the same way every time', () => {
    fc.assert(
      fc.property(anyText, (query) => {
        const first = understandQuery(query);
        expect(understandQuery(query)).toEqual(first);
        for (const id of first.ids) expect(id).toMatch(CVE_ID_REGEX);
        for (const cwe of first.cwes) expect(cwe).toMatch(/^CWE-[1-9]\d*$|^CWE-0$/);
        for (const severity of first.severities ?? []) expect(SEVERITIES).toContain(severity);
        for (const term of first.terms) {
          expect(term.word).toMatch(/^[\p{L}\p{N}]+$/u);
          expect(STOP_WORDS.has(term.word)).toBe(false);
        }
        expect(first.terms.length).toBeLessThanOrEqual(MAX_TERMS);
      }),
      { numRuns: 500 },
    );
  });

  it('reads any common spelling of an identifier back to the identifier', () => {
    const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
    const spelling = fc.record({
      year: digits(4, 4),
      sequence: digits(4, 8),
      prefix: fc.constantFrom('CVE', 'cve', 'Cve', ''),
      first: fc.constantFrom('-', '_', ' ', ''),
      second: fc.constantFrom('-', '_', ' ', '', '\u2011'),
      before: fc.constantFrom('', 'show ', 'is ', '('),
      after: fc.constantFrom('', ' please', ')', ', and more'),
    });
    fc.assert(
      fc.property(spelling, ({ year, sequence, prefix, first, second, before, after }) => {
        // Without the prefix only a hyphen or underscore joins the two numbers; otherwise they are two numbers.
        const joiner = prefix === '' ? (second === '_' ? '_' : '-') : second;
        const text = `${before}${prefix}${prefix === '' ? '' : first}${year}${joiner}${sequence}${after}`;
        expect(understandQuery(text).ids).toEqual([`CVE-${year}-${sequence}`]);
      }),
      { numRuns: 500 },
    );
  });
});
