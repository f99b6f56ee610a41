// The search engine on small catalogs whose answers can be worked out by hand: score bands, filters,
// ordering, the per-snapshot index, and the project-name rules.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CatalogRecord, SEVERITIES } from '../../src/contract/index.js';
import { createCursorCodec } from '../../src/core/cursor.js';
import { type ListQuery, listRecords } from '../../src/core/list.js';
import { projectKeys } from '../../src/core/search/project-index.js';
import { DEFAULT_SEARCH_PHRASE, search, searchRecords } from '../../src/core/search/search.js';
import { createSnapshot, prepareSnapshot } from '../../src/core/snapshot.js';
import { fixtureCatalog, fixtureOrder } from '../support/app.js';
import { detailed } from '../support/detailed-records.js';

const record = (id: string, project: string, summary: string, status: CatalogRecord['status'] = 'public'): CatalogRecord => ({
  id,
  project,
  status,
  url: status === 'public' ? `https://www.cve.org/CVERecord?id=${id}` : null,
  summary,
});

// Given out of listing order on purpose.
const catalog = {
  lastVerified: '2025-01-24',
  records: [
    record('CVE-2023-0002', 'https://github.com/curl/curl', 'Use after free in the curl HTTP proxy tunnel.'),
    record('CVE-2024-0001', 'https://github.com/curl/curl', 'Cookie leak on redirect in curl.'),
    record('CVE-2024-0002', 'OpenSSL', 'Timing side channel in RSA decryption.'),
    record('CVE-2022-0001', 'OpenSSL', 'Heap overflow in the X.509 parser.'),
    record('CVE-2024-0003', 'wget', 'Heap overflow when wget parses a reply, unlike curl.'),
    record('CVE-2025-0001', 'OpenSSL', '', 'assigned-no-public-record'),
    record('CVE-2021-0001', 'libxml2', 'Heap overflow in the libxml2 parser.'),
  ],
};
const ids = (hits: readonly { entry: { record: { id: string } } }[]) => hits.map((hit) => hit.entry.record.id);

describe('search engine', () => {
  const snapshot = createSnapshot(catalog);

  it('puts named identifiers first at 1, then ranked words, never one record twice', () => {
    // Both other records say "heap overflow"; BM25 prefers the shorter summary, OpenSSL's.
    const { hits } = search(snapshot, 'CVE-2021-0001 heap overflow', 10);
    expect(ids(hits)).toEqual(['CVE-2021-0001', 'CVE-2022-0001', 'CVE-2024-0003']);
    expect(hits[0]!.score).toBe(1);
    expect(hits[1]!.score).toBeLessThanOrEqual(0.8);
  });

  it('gives a named project 0.9, newest first, above records that only mention it', () => {
    const { hits, explanation } = search(snapshot, 'curl', 10);
    expect(ids(hits)).toEqual(['CVE-2024-0001', 'CVE-2023-0002', 'CVE-2024-0003']);
    expect(hits.map((hit) => hit.score)).toEqual([0.9, 0.9, expect.any(Number)]);
    expect(hits[2]!.score).toBeLessThanOrEqual(0.8);
    expect(explanation).toContain('project curl → https://github.com/curl/curl');
  });

  it('ranks the record with every word first, at the top of the text band, then records with some of them', () => {
    const { hits } = search(snapshot, 'openssl heap overflow', 10);
    // wget and libxml2 have a heap overflow but no OpenSSL; OpenSSL's timing record has no heap overflow.
    expect(ids(hits)[0]).toBe('CVE-2022-0001');
    expect(hits[0]!.score).toBe(0.8);
    expect(ids(hits)).toEqual(expect.arrayContaining(['CVE-2024-0002', 'CVE-2024-0003', 'CVE-2021-0001']));
    for (const hit of hits.slice(1)) expect(hit.score).toBeLessThan(hits[0]!.score);
    // OpenSSL's cleared id without a public record comes after its published records.
    expect(ids(hits).indexOf('CVE-2025-0001')).toBeGreaterThan(ids(hits).indexOf('CVE-2024-0002'));
  });

  it('answers with the records meeting some of the words when none meets all, the named project first', () => {
    const { hits } = search(snapshot, 'curl timing', 10);
    // curl's two records, then OpenSSL's timing record and wget's, which only mentions curl.
    expect(ids(hits).slice(0, 2)).toEqual(['CVE-2024-0001', 'CVE-2023-0002']);
    expect(ids(hits).slice(2).sort()).toEqual(['CVE-2024-0002', 'CVE-2024-0003']);
    for (const hit of hits) expect(hit.score).toBeLessThanOrEqual(0.8);
  });

  it('sets a word that matches nothing aside, and says so', () => {
    const { hits, explanation } = search(snapshot, 'openssl zzyzx', 10);
    expect(ids(hits)).toEqual(['CVE-2024-0002', 'CVE-2022-0001', 'CVE-2025-0001']);
    expect(explanation).toContain('nothing matches "zzyzx"');
    expect(search(snapshot, 'qqzzyx zzyzx', 10).hits).toEqual([]);
  });

  it('restricts every kind of hit by status and year', () => {
    expect(ids(search(snapshot, 'openssl not public', 10).hits)).toEqual(['CVE-2025-0001']);
    expect(ids(search(snapshot, 'heap overflow before 2022', 10).hits)).toEqual(['CVE-2021-0001']);
    expect(ids(search(snapshot, 'CVE-2024-0002 assigned', 10).hits)).toEqual([]);
  });

  it('lists the newest records meeting the filters when no word is left', () => {
    const { hits } = search(snapshot, DEFAULT_SEARCH_PHRASE, 3);
    expect(ids(hits)).toEqual(['CVE-2024-0003', 'CVE-2024-0002', 'CVE-2024-0001']);
    expect(new Set(hits.map((hit) => hit.score))).toEqual(new Set([0.5]));
  });

  it('reads a typo of a project name in a lower band than the name', () => {
    const { hits } = search(snapshot, 'opnessl', 10);
    // Published records first; the cleared id without a public record after them.
    expect(ids(hits).slice(0, 3)).toEqual(['CVE-2024-0002', 'CVE-2022-0001', 'CVE-2025-0001']);
    expect(hits[0]!.score).toBeLessThan(0.9);
    expect(hits[0]!.score).toBeGreaterThan(0.5);
  });

  it('answers a query of nothing but aliases without trying every spelling', () => {
    // A name of 40 words lets a span of 32 aliased words be looked up: 2^32 spellings if nothing stopped it.
    const longName = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const withLongName = createSnapshot({ ...catalog, records: [...catalog.records, record('CVE-2020-0001', longName, 'Long name.')] });
    const { hits } = search(withLongName, Array.from({ length: 40 }, () => 'py').join(' '), 10);
    expect(hits).toEqual([]);
  });

  it('honours the limit', () => {
    expect(search(snapshot, 'curl', 1).hits).toHaveLength(1);
    expect(search(snapshot, 'curl', 0).hits).toEqual([]);
    expect(searchRecords(snapshot, 'curl', 2)).toEqual(search(snapshot, 'curl', 2).hits);
  });

  it('builds the index once per snapshot, and afresh for a reloaded one', () => {
    const index = snapshot.search.get();
    expect(snapshot.search.get()).toBe(index);
    const reloaded = createSnapshot(catalog);
    expect(reloaded.search.get()).not.toBe(index);
  });

  it('prepares a snapshot before it is served: index, project table and change order built, none on first use', async () => {
    const fresh = createSnapshot(catalog);
    const derivedTables = [fresh.search, fresh.projects, fresh.changes];
    expect(derivedTables.map((table) => table.built)).toEqual([false, false, false]);
    await prepareSnapshot(fresh);
    expect(derivedTables.map((table) => table.built)).toEqual([true, true, true]);
  });

  it('can build the index in steps, letting other work run between them, to the same answers', async () => {
    const large = createSnapshot({
      lastVerified: '2025-01-24',
      records: Array.from({ length: 20_000 }, (_, i) =>
        record(`CVE-2024-${10_000 + i}`, `project${i % 50}`, `issue number ${i} in the parser`),
      ),
    });
    let ranBetweenSteps = false;
    setImmediate(() => (ranBetweenSteps = true));
    const prepared = await large.search.prepare();
    expect(ranBetweenSteps).toBe(true);
    expect(large.search.get()).toBe(prepared);
    expect(await large.search.prepare()).toBe(prepared);
    expect(ids(search(large, 'project7 parser', 3).hits)).toEqual(
      ids(
        search(
          createSnapshot({
            lastVerified: '2025-01-24',
            records: large.table.ids.map((id) => ({ ...large.get(id)!.record, summary: large.get(id)!.summary! })),
          }),
          'project7 parser',
          3,
        ).hits,
      ),
    );
  });

  it('still finds identifiers and exact projects of the shared test catalog', () => {
    const fixture = createSnapshot(fixtureCatalog);
    expect(ids(searchRecords(fixture, 'CVE-2021-44228', 10))).toEqual(['CVE-2021-44228']);
    // Published records newest first, then the cleared id without a public record.
    expect(ids(searchRecords(fixture, 'openssl', 10))).toEqual([
      ...fixtureOrder.filter((id) => ['CVE-2025-9999', 'CVE-2024-1234', 'CVE-2022-4450'].includes(id)),
      'CVE-2023-0001',
    ]);
  });

  it('never throws, and keeps scores in [0, 1], best first, within the limit', () => {
    const words = fc.constantFrom(
      'curl',
      'openssl',
      'heap',
      'overflow',
      'cve-2024-0001',
      'not',
      'public',
      'before',
      '2023',
      'opnessl',
      'libx',
      'zz',
      ' ',
    );
    const query = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 120 }),
      fc.array(words, { maxLength: 8 }).map((parts) => parts.join(' ')),
    );
    fc.assert(
      fc.property(query, fc.integer({ min: 0, max: 12 }), (text, limit) => {
        const { hits } = search(snapshot, text, limit);
        expect(hits.length).toBeLessThanOrEqual(limit);
        expect(new Set(ids(hits)).size).toBe(hits.length);
        hits.forEach((hit, i) => {
          expect(hit.score).toBeGreaterThanOrEqual(0);
          expect(hit.score).toBeLessThanOrEqual(1);
          if (i > 0) expect(hit.score).toBeLessThanOrEqual(hits[i - 1]!.score);
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('severity, exploitation and weakness words', () => {
  const summaries = ['Heap overflow in the parser.', 'Cross-site scripting in the admin page.', 'Timing side channel in RSA.'];
  const snapshot = createSnapshot({
    lastVerified: '2025-01-24',
    records: Array.from({ length: 300 }, (_, n) =>
      detailed(`CVE-${2020 + (n % 6)}-${1000 + n}`, ['Linux', 'OpenSSL', 'curl'][n % 3]!, {
        severities: n % 7 === 0 ? [] : [SEVERITIES[n % 5]!],
        kev: n % 4 === 0,
        cwes: n % 5 === 0 ? [] : [`CWE-${n % 11}`],
        published: `${2020 + (n % 6)}-01-01`,
        summary: summaries[n % 3]!,
      }),
    ),
  });
  const cursors = createCursorCodec('search-secret');
  const listed = (query: ListQuery) => listRecords(snapshot, { limit: 20, ...query }, cursors).records.map((record) => record.id);

  it.each<[string, ListQuery]>([
    ['critical', { severity: 'critical' }],
    ['high severity', { severity: 'high' }],
    ['cvss 9', { severity: 'critical' }],
    ['actively exploited', { kev: true }],
    ['not in KEV', { kev: false }],
    ['cwe-3', { cwe: 'CWE-3' }],
    ['high severity exploited CWE 4', { severity: 'high', kev: true, cwe: 'CWE-4' }],
  ])('answers "%s" with what the list filters %j give, newest first', (query, filters) => {
    const found = ids(search(snapshot, query, 20).hits);
    expect(found.length).toBeGreaterThan(0);
    expect(found).toEqual(listed(filters));
  });

  it('keeps several severities or CWE ids as any of them', () => {
    const { table } = snapshot;
    const { hits } = search(snapshot, 'cvss 7 cwe-3 or cwe-4', 300);
    expect(hits.length).toBeGreaterThan(0);
    for (const { entry } of hits) {
      expect([0, 1]).toContain(table.severity[entry.position]);
    }
    const names = (p: number) => table.cweOf.subarray(table.cweStarts[p]!, table.cweStarts[p + 1]!);
    const wanted = ['CWE-3', 'CWE-4'].map((cwe) => table.cweNames.indexOf(cwe));
    const expected = table.ids.filter((_, p) => table.severity[p]! <= 1 && names(p).some((code) => wanted.includes(code)));
    expect(hits.map((hit) => hit.entry.record.id)).toEqual(expected);
  });

  it('applies the words to every kind of hit: ranked words and named projects', () => {
    for (const query of ['critical heap overflow', 'openssl critical', 'in kev timing']) {
      const { hits, understanding } = search(snapshot, query, 50);
      expect(hits.length, query).toBeGreaterThan(0);
      for (const { entry } of hits) {
        if (understanding.severities) expect(snapshot.table.severity[entry.position]).toBe(0);
        if (understanding.kev) expect(snapshot.table.kev[entry.position]).toBe(1);
      }
    }
    expect(search(snapshot, 'openssl critical', 50).hits.every((hit) => hit.entry.record.project === 'OpenSSL')).toBe(true);
  });

  it('says when no record names a CWE id, and answers nothing', () => {
    const { hits, explanation } = search(snapshot, 'cwe-9999', 20);
    expect(hits).toEqual([]);
    expect(explanation).toContain('no record names CWE-9999');
  });
});

describe('project names', () => {
  it('looks a repository URL or owner/repository name up by the repository too', () => {
    expect(projectKeys('https://github.com/curl/curl')).toEqual([['https', 'github', 'com', 'curl', 'curl'], ['curl']]);
    expect(projectKeys('github.com/go-resty/resty/v2')).toContainEqual(['resty']);
    expect(projectKeys('vanna-ai/vanna')).toEqual([['vanna', 'ai', 'vanna'], ['vanna']]);
  });

  it('does not take a product name with a slash for a repository', () => {
    expect(projectKeys('FAST/TOOLS')).toEqual([['fast', 'tools']]);
    expect(projectKeys('iOS and iPadOS')).toEqual([['ios', 'ipados']]);
  });

  it('reads the words of a weakness phrase as the weakness, not as a project ("cross-site scripting" is not Scripting)', () => {
    const snapshot = createSnapshot({
      lastVerified: '2025-01-24',
      records: [
        record('CVE-2024-0010', 'Scripting', 'Memory leak in the scripting engine.'),
        record('CVE-2024-0011', 'blog', 'Stored cross-site scripting in the comment form.'),
        record('CVE-2024-0012', 'Service', 'Crash in the service manager.'),
        record('CVE-2024-0013', 'router', 'Denial of service by a crafted packet.'),
      ],
    });
    for (const [query, meant, project] of [
      ['cross-site scripting', 'CVE-2024-0011', 'scripting'],
      ['denial of service', 'CVE-2024-0013', 'service'],
    ] as const) {
      const { hits, explanation } = search(snapshot, query, 10);
      // The record saying the phrase first; the project's own record only as one with some of the words.
      expect(ids(hits)[0], query).toBe(meant);
      expect(Math.max(...hits.map((hit) => hit.score)), query).toBeLessThanOrEqual(0.8);
      expect(explanation.join(' '), query).not.toContain(`project ${project}`);
    }
    // Alone, the word still names the project.
    expect(search(snapshot, 'scripting', 10).explanation).toContain('project scripting → Scripting');
  });
});
