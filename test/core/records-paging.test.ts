import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CatalogFile, type RecordStatus, ServiceError } from '../../src/contract/index.js';
import { createCursorCodec } from '../../src/core/cursor.js';
import { listRecords } from '../../src/core/list.js';
import { createSnapshot } from '../../src/core/snapshot.js';
import { fixtureCatalog, fixtureOrder } from '../support/app.js';

const cursors = createCursorCodec('paging-secret');
const snapshot = createSnapshot(fixtureCatalog);

function walk(query: { limit: number; project?: string; status?: RecordStatus }, snap = snapshot): string[] {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = listRecords(snap, { ...query, cursor }, cursors);
    expect(page.pagination.returned).toBe(page.records.length);
    expect(page.records.length).toBeLessThanOrEqual(query.limit);
    seen.push(...page.records.map((r) => r.id));
    if (page.pagination.nextCursor === null) return seen;
    cursor = page.pagination.nextCursor;
  }
}

describe('list: pages in one stable order (spec rule 1)', () => {
  it('walks every record exactly once, in listing order, for every page size', () => {
    for (let limit = 1; limit <= 9; limit++) expect(walk({ limit })).toEqual(fixtureOrder);
  });

  it('defaults to 20 records per page and reports the total', () => {
    const page = listRecords(snapshot, {}, cursors);
    expect(page.pagination).toMatchObject({ limit: 20, returned: 8, total: 8, nextCursor: null });
    expect(page.lastVerified).toBe('2025-01-24');
  });

  it('pages through large random catalogs without loss or repetition', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.integer({ min: 2019, max: 2025 }), fc.integer({ min: 1, max: 200_000 })), {
          minLength: 0,
          maxLength: 300,
          selector: ([y, n]) => `${y}-${n}`,
        }),
        fc.integer({ min: 1, max: 100 }),
        (keys, limit) => {
          const catalog: CatalogFile = {
            lastVerified: '2025-01-01',
            records: keys.map(([y, n]) => ({ id: `CVE-${y}-${n}`, project: `p${n % 3}`, status: 'public', url: null })),
          };
          const snap = createSnapshot(catalog);
          const expected = [...snap.table.ids];
          expect(walk({ limit }, snap)).toEqual(expected);
          expect(walk({ limit, project: 'p1' }, snap)).toEqual(expected.filter((id) => Number(id.split('-')[2]) % 3 === 1));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('list: exact filters (spec rule 2)', () => {
  it('filters by project exactly and case-sensitively', () => {
    expect(walk({ limit: 2, project: 'openssl' })).toEqual(['CVE-2025-9999', 'CVE-2024-1234', 'CVE-2023-0001', 'CVE-2022-4450']);
    expect(walk({ limit: 2, project: 'OpenSSL' })).toEqual([]);
    expect(walk({ limit: 2, project: 'open' })).toEqual([]);
  });

  it('filters by status and by both', () => {
    expect(walk({ limit: 3, status: 'assigned-no-public-record' })).toEqual(['CVE-2025-0001', 'CVE-2023-0001']);
    expect(walk({ limit: 3, project: 'curl', status: 'public' })).toEqual(['CVE-2024-50000']);
  });
});

describe('list: keyset cursors', () => {
  it('keep their place when records are added before or after them', () => {
    const first = listRecords(snapshot, { limit: 3 }, cursors);
    const grown = createSnapshot({
      ...fixtureCatalog,
      records: [
        ...fixtureCatalog.records,
        { id: 'CVE-2026-1', project: 'x', status: 'public', url: null },
        { id: 'CVE-2024-40000', project: 'x', status: 'public', url: null },
      ],
    });
    const next = listRecords(grown, { limit: 3, cursor: first.pagination.nextCursor! }, cursors);
    expect(next.records.map((r) => r.id)).toEqual(['CVE-2024-50000', 'CVE-2024-40000', 'CVE-2024-1234']);
  });

  it('are bound to the filters they were issued for', () => {
    const page = listRecords(snapshot, { limit: 1, project: 'openssl' }, cursors);
    const cursor = page.pagination.nextCursor!;
    expect(() => listRecords(snapshot, { limit: 1, cursor }, cursors)).toThrow(ServiceError);
    expect(() => listRecords(snapshot, { limit: 1, cursor, project: 'curl' }, cursors)).toThrow(/other filters/);
    expect(() => listRecords(snapshot, { limit: 1, cursor, project: 'openssl', status: 'public' }, cursors)).toThrow(/other filters/);
    expect(listRecords(snapshot, { limit: 5, cursor, project: 'openssl' }, cursors).records.every((r) => r.project === 'openssl')).toBe(
      true,
    );
  });

  it('are tamper-evident: every one-character change to a cursor is invalid_cursor', () => {
    const cursor = listRecords(snapshot, { limit: 1 }, cursors).pagination.nextCursor!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=';
    let tried = 0;
    for (let at = 0; at < cursor.length; at++) {
      for (const char of alphabet) {
        const altered = cursor.slice(0, at) + char + cursor.slice(at + 1);
        if (altered === cursor) continue;
        tried++;
        expect(() => listRecords(snapshot, { limit: 1, cursor: altered }, cursors), altered).toThrow(ServiceError);
      }
    }
    expect(tried).toBeGreaterThan(cursor.length * 60);
  });

  it('issued with another secret, or forged, are rejected', () => {
    const foreign = createCursorCodec('another-secret').encode('CVE-2025-9999', {});
    expect(() => listRecords(snapshot, { limit: 1, cursor: foreign }, cursors)).toThrow(/altered/);
    for (const junk of ['x', '.', 'a.b', `${Buffer.from('1|CVE-2025-9999').toString('base64url')}.`, '%%%', 'é'.repeat(300)]) {
      expect(() => listRecords(snapshot, { limit: 1, cursor: junk }, cursors)).toThrow(ServiceError);
    }
  });
});
