// The list filters on what a record's details say (severity, KEV, CWE, publication dates): combined with
// each other and with project and status, bound into cursors, and as cheap on a deep page as on page 1.
import { describe, expect, it } from 'vitest';
import { type CatalogFile, SEVERITIES, type Severity } from '../../src/contract/index.js';
import { createCursorCodec } from '../../src/core/cursor.js';
import { type ListQuery, listRecords } from '../../src/core/list.js';
import { createSnapshot } from '../../src/core/snapshot.js';
import { detailed } from '../support/detailed-records.js';

const cursors = createCursorCodec('filters-secret');

/** Records with every combination of attributes spread over them, deterministically. */
function catalog(size: number): CatalogFile {
  const records = Array.from({ length: size }, (_, n) =>
    detailed(`CVE-${2020 + (n % 6)}-${1000 + n}`, ['Linux', 'OpenSSL', 'curl'][n % 3]!, {
      severities: n % 7 === 0 ? [] : n % 2 === 1 ? [SEVERITIES[n % 5]!] : [SEVERITIES[n % 5]!, 'low'],
      kev: n % 4 === 0,
      cwes: n % 5 === 0 ? [] : [`CWE-${n % 11}`, ...(n % 2 === 0 ? ['CWE-79'] : [])],
      ...(n % 13 === 0 ? {} : { published: `${2020 + (n % 6)}-0${1 + (n % 9)}-1${n % 10}` }),
    }),
  );
  return { lastVerified: '2025-01-24', records };
}

const small = catalog(600);
const snapshot = createSnapshot(small);

function walk(query: ListQuery): string[] {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = listRecords(snapshot, { ...query, cursor }, cursors);
    seen.push(...page.records.map((r) => r.id));
    if (page.pagination.nextCursor === null) {
      expect(page.pagination.total).toBe(seen.length);
      return seen;
    }
    cursor = page.pagination.nextCursor;
  }
}

/** What a filter selects, read from the details themselves. */
function expected(query: ListQuery): string[] {
  const rank = (severity: Severity) => SEVERITIES.indexOf(severity);
  return snapshot.table.ids.filter((id) => {
    const record = small.records.find((r) => r.id === id)!;
    const details = record.details!;
    const highest = details.metrics.map((m) => m.severity).sort((a, b) => rank(a) - rank(b))[0];
    const published = record.published;
    return (
      (query.project === undefined || record.project === query.project) &&
      (query.status === undefined || record.status === query.status) &&
      (query.severity === undefined || highest === query.severity) &&
      (query.kev === undefined || (details.kev !== null) === query.kev) &&
      (query.cwe === undefined || details.problemTypes.some((type) => type.cweId === query.cwe!.toUpperCase())) &&
      (query.published_since === undefined || (published !== undefined && published >= query.published_since)) &&
      (query.published_before === undefined || (published !== undefined && published < query.published_before))
    );
  });
}

describe('list: filters on details', () => {
  const queries: ListQuery[] = [
    { severity: 'critical' },
    { severity: 'none' },
    { kev: true },
    { kev: false },
    { cwe: 'CWE-79' },
    { cwe: 'cwe-3' },
    { cwe: 'CWE-9999' },
    { published_since: '2023-01-01' },
    { published_before: '2021-05-01' },
    { published_since: '2021-03-01', published_before: '2023-07-15' },
    { severity: 'critical', kev: true },
    { severity: 'high', kev: false, cwe: 'CWE-79', project: 'Linux' },
    { severity: 'medium', status: 'public', published_since: '2022-01-01' },
    { project: 'OpenSSL', kev: true, cwe: 'CWE-79', published_before: '2025-01-01' },
    { project: 'nobody', severity: 'critical' },
  ];

  it.each(queries)('selects what the details say, alone and combined: %j', (query) => {
    const ids = expected(query);
    expect(walk({ ...query, limit: 7 })).toEqual(ids);
    if (query.project !== 'nobody' && query.cwe !== 'CWE-9999') expect(ids.length).toBeGreaterThan(0);
  });

  it('leaves out records without a publication date when a date filter is given, and those without a score from every severity', () => {
    const undated = snapshot.table.ids.filter((id) => small.records.find((r) => r.id === id)!.published === undefined);
    expect(undated.length).toBeGreaterThan(0);
    expect(walk({ published_before: '2100-01-01', limit: 100 })).not.toContain(undated[0]);
    const unscored = small.records.filter((r) => r.details!.metrics.length === 0).map((r) => r.id);
    for (const severity of SEVERITIES) expect(walk({ severity, limit: 100 }).some((id) => unscored.includes(id))).toBe(false);
  });
});

describe('list: cursors are bound to every filter', () => {
  const base: ListQuery = { limit: 3, severity: 'high', kev: true, cwe: 'CWE-79', published_since: '2020-01-01' };
  const cursor = listRecords(snapshot, base, cursors).pagination.nextCursor!;

  it('continue with the same filters, whatever the case of the CWE id', () => {
    expect(listRecords(snapshot, { ...base, cursor }, cursors).records.length).toBeGreaterThan(0);
    expect(listRecords(snapshot, { ...base, cwe: 'cwe-79', cursor }, cursors).records.length).toBeGreaterThan(0);
  });

  it.each<ListQuery>([
    { severity: 'critical' },
    { severity: undefined },
    { kev: false },
    { kev: undefined },
    { cwe: 'CWE-80' },
    { published_since: '2020-01-02' },
    { published_before: '2030-01-01' },
    { project: 'Linux' },
  ])('are invalid_cursor with other filters: %j', (change) => {
    expect(() => listRecords(snapshot, { ...base, ...change, cursor }, cursors)).toThrow(/other filters/);
  });
});

describe('list: deep filtered pages', () => {
  it('page 1000 of severity=critical&kev=true costs about what page 1 does', () => {
    const large = createSnapshot(catalog(25_000));
    const query: ListQuery = { severity: 'critical', kev: true, limit: 1 };
    let cursor: string | undefined;
    for (let page = 1; page < 1000; page++) cursor = listRecords(large, { ...query, cursor }, cursors).pagination.nextCursor!;
    expect(cursor).toEqual(expect.any(String));
    const median = (run: () => unknown): number => {
      const times: number[] = [];
      for (let i = 0; i < 300; i++) {
        const start = process.hrtime.bigint();
        run();
        times.push(Number(process.hrtime.bigint() - start));
      }
      return times.sort((a, b) => a - b)[150]!;
    };
    const first = median(() => listRecords(large, query, cursors));
    const deep = median(() => listRecords(large, { ...query, cursor }, cursors));
    // A scan from the start would make page 1000 hundreds of times slower; a shared machine makes small differences noise.
    expect(deep).toBeLessThan(first * 3);
  });
});
