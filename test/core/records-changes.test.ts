import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CatalogFile, type CatalogRecord, ServiceError } from '../../src/contract/index.js';
import { sortedByTime } from '../../src/core/change-order.js';
import { listChanges } from '../../src/core/changes.js';
import { createCursorCodec } from '../../src/core/cursor.js';
import { createSnapshot } from '../../src/core/snapshot.js';

const tokens = createCursorCodec('changes-secret');

const record = (id: string, modified?: string): CatalogRecord => ({
  id,
  project: 'demo',
  status: 'public',
  url: `https://www.cve.org/CVERecord?id=${id}`,
  ...(modified === undefined ? {} : { modified }),
});

const catalog: CatalogFile = {
  lastVerified: '2025-01-24',
  records: [
    record('CVE-2024-0003', '2025-01-02T00:00:00.000Z'),
    record('CVE-2024-0001', '2025-01-01T00:00:00.000Z'),
    record('CVE-2025-0001', '2025-01-02T00:00:00.000Z'),
    record('CVE-2023-0009'),
  ],
  removed: [{ id: 'CVE-2024-0002', modified: '2025-01-01T12:00:00.000Z' }],
};

/** Every change after `since`, page by page, as `id:change`; and the token to poll with next. */
function walk(snapshotCatalog: CatalogFile, limit: number, since?: string): { seen: string[]; next: string } {
  const snapshot = createSnapshot(snapshotCatalog);
  const seen: string[] = [];
  for (;;) {
    const page = listChanges(snapshot, { limit, since }, tokens);
    expect(page.changes.length).toBeLessThanOrEqual(limit);
    expect(page.pagination.returned).toBe(page.changes.length);
    seen.push(...page.changes.map((change) => `${change.id}:${change.change}`));
    since = page.pagination.next;
    if (!page.pagination.hasMore) return { seen, next: since };
  }
}

describe('change feed: records and removals since a point, oldest first', () => {
  it('orders by change time (unknown first), ties in listing order, removals among them, for every page size', () => {
    const expected = [
      'CVE-2023-0009:updated',
      'CVE-2024-0001:updated',
      'CVE-2024-0002:removed',
      'CVE-2025-0001:updated',
      'CVE-2024-0003:updated',
    ];
    for (let limit = 1; limit <= 6; limit++) expect(walk(catalog, limit).seen).toEqual(expected);
  });

  it("lists a change upstream published late at `changed`, when the sync took it, keeping upstream's `modified` (docs/API.md)", () => {
    const late = { ...record('CVE-2024-0005', '2024-12-01T00:00:00.000Z'), changed: '2025-01-03T00:00:00.000Z' };
    const withLate = { ...catalog, records: [...catalog.records, late] };
    expect(walk(withLate, 10).seen.at(-1)).toBe('CVE-2024-0005:updated');
    const { changes } = listChanges(createSnapshot(withLate), { limit: 10 }, tokens);
    expect(changes.at(-1)).toMatchObject({ id: 'CVE-2024-0005', modified: '2024-12-01T00:00:00.000Z' });
  });

  it('carries the record as it is now, and no record for a removal', () => {
    const { changes } = listChanges(createSnapshot(catalog), { limit: 3 }, tokens);
    expect(changes[0]).toEqual({ id: 'CVE-2023-0009', change: 'updated', modified: null, record: record('CVE-2023-0009') });
    expect(changes[2]).toEqual({ id: 'CVE-2024-0002', change: 'removed', modified: '2025-01-01T12:00:00.000Z' });
  });

  it('gives a poll only what changed after its token, in a later catalog version', () => {
    const { next } = walk(catalog, 2);
    expect(walk(catalog, 2, next).seen).toEqual([]);
    const later: CatalogFile = {
      ...catalog,
      records: [...catalog.records.filter((r) => r.id !== 'CVE-2024-0001'), record('CVE-2024-0001', '2025-01-03T00:00:00.000Z')],
      removed: [...catalog.removed!, { id: 'CVE-2024-0007', modified: '2025-01-04T00:00:00.000Z' }],
    };
    expect(walk(later, 2, next).seen).toEqual(['CVE-2024-0001:updated', 'CVE-2024-0007:removed']);
  });

  it('takes a date or a date-time as since: changes at or after it', () => {
    expect(walk(catalog, 10, '2025-01-02').seen).toEqual(['CVE-2025-0001:updated', 'CVE-2024-0003:updated']);
    expect(walk(catalog, 10, '2025-01-01T12:00:00Z').seen).toEqual([
      'CVE-2024-0002:removed',
      'CVE-2025-0001:updated',
      'CVE-2024-0003:updated',
    ]);
    expect(walk(catalog, 10, '2025-01-01T13:00:00+01:00').seen[0]).toBe('CVE-2024-0002:removed');
  });

  it('takes dates of the years 0001 to 0099 as the years they name, not as 1901 to 1999 (issue 24, item 7)', () => {
    // Every change of a known time is after them (a change of unknown time is after no date).
    const everything = walk(catalog, 10, '1970-01-01').seen;
    expect(everything).toHaveLength(4);
    for (const since of ['0001-01-01T00:00:00Z', '0001-01-01', '0050-02-28T12:00:00+01:00', '0099-12-31', '0099-12-31T23:59:59Z']) {
      expect(walk(catalog, 10, since).seen, since).toEqual(everything);
    }
    // Still a calendar: 29 February exists only in leap years, among these years too.
    expect(walk(catalog, 10, '0004-02-29').seen).toEqual(everything);
    expect(() => listChanges(createSnapshot(catalog), { since: '0003-02-29' }, tokens)).toThrow(ServiceError);
  });

  it('refuses an altered, foreign or malformed since with invalid_cursor', () => {
    const { next } = walk(catalog, 1);
    const altered = `${next.slice(0, -2)}${next.endsWith('A') ? 'B' : 'A'}`;
    const foreign = createCursorCodec('other-secret').encodeChangePoint({ time: 0, id: 'CVE-2024-0001' });
    for (const since of [altered, foreign, 'garbage', '2025-13-45T00:00:00Z', 'x'.repeat(300)]) {
      expect(() => listChanges(createSnapshot(catalog), { since }, tokens), since).toThrow(ServiceError);
    }
  });

  it('sees every change exactly once however the catalog and page size are drawn', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.integer({ min: 1, max: 5000 }), fc.option(fc.integer({ min: 0, max: 5 }))), {
          minLength: 0,
          maxLength: 60,
          selector: ([n]) => n,
        }),
        fc.integer({ min: 1, max: 7 }),
        (drawn, limit) => {
          const records = drawn.map(([n, day]) => record(`CVE-2024-${n}`, day === null ? undefined : `2025-01-0${day + 1}T00:00:00.000Z`));
          const { seen } = walk({ lastVerified: '2025-01-24', records }, limit);
          expect(seen.toSorted()).toEqual(records.map((r) => `${r.id}:updated`).toSorted());
        },
      ),
    );
  });
});

describe('change order', () => {
  // What the order means, written the plain way: by time, unknown times first, ties in position order.
  const reference = (times: Float64Array) =>
    [...times.keys()].sort((a, b) => (times[a] === times[b] ? a - b : times[a]! < times[b]! ? -1 : 1));
  const time = fc.oneof(
    fc.constant(Number.NEGATIVE_INFINITY),
    fc.constantFrom(1_700_000_000_000, 1_700_000_000_001), // ties
    fc.integer({ min: 900_000_000_000, max: 2_000_000_000_000 }),
    fc.constantFrom(253_402_300_799_000, 0), // 9999-12-31 (too large to pack: the comparator) and 1970
  );

  it('sorts positions by time, unknown times first, ties in position order, whichever way it sorts', () => {
    fc.assert(
      fc.property(fc.array(time, { maxLength: 300 }), (values) => {
        const times = Float64Array.from(values);
        expect([...sortedByTime(times)]).toEqual(reference(times));
      }),
      { numRuns: 300 },
    );
  });
});
