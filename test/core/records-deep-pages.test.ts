// A deep page costs what page 1 costs (issue 27: `project=&version=` at page 100 within 10% of page 1). The
// cursor names the last record of the page before: its position in the table, found by the id index,
// places the next page by a bisection of numbers, so a page reads no more ids at any depth than page 1
// does; and a cursor brought back to the codec that issued it is read without decoding it again.
import { describe, expect, it } from 'vitest';
import type { CatalogFile } from '../../src/contract/index.js';
import { createCursorCodec } from '../../src/core/cursor.js';
import { type ListQuery, listFilters, listRecords, planPage } from '../../src/core/list.js';
import { createSnapshot, type Snapshot } from '../../src/core/snapshot.js';

const catalog: CatalogFile = {
  lastVerified: '2025-01-01',
  records: Array.from({ length: 5000 }, (_, i) => ({
    id: `CVE-${2015 + (i % 10)}-${10_000 + i}`,
    project: i % 2 === 0 ? 'even' : 'odd',
    status: 'public' as const,
    url: null,
  })),
};
const snapshot = createSnapshot(catalog);
const cursors = createCursorCodec('deep-pages');

/** The snapshot with its table's ids counted as they are read. */
function countingIds(of: Snapshot): { snapshot: Snapshot; reads: () => number } {
  let reads = 0;
  const ids = new Proxy(of.table.ids as string[], {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  return { snapshot: { ...of, table: { ...of.table, ids } }, reads: () => reads };
}

/** The cursors of the first `pages` pages (page 1's is undefined). */
function cursorsOf(query: ListQuery, pages: number): (string | undefined)[] {
  const found: (string | undefined)[] = [undefined];
  while (found.length < pages) found.push(planPage(snapshot, { ...query, cursor: found.at(-1) }, cursors).nextCursor!);
  return found;
}

describe('list: a deep page does the work of page 1', () => {
  it('reads as many ids at page 100 as at page 1: the cursor is placed by its position, not by comparing ids', () => {
    for (const query of [{ limit: 20 }, { limit: 20, project: 'odd' }]) {
      const pages = cursorsOf(query, 100);
      const counted = countingIds(snapshot);
      const readsAt = (cursor: string | undefined) => {
        const before = counted.reads();
        planPage(counted.snapshot, { ...query, cursor }, cursors);
        return counted.reads() - before;
      };
      const first = readsAt(pages[0]);
      expect(first).toBe(1); // the last record's id, for the next cursor
      for (const page of [2, 10, 50, 100]) expect(readsAt(pages[page - 1]), `page ${page}`).toBe(first);
    }
  });

  it('starts after the place of a record gone since the cursor was issued', () => {
    const cursor = listRecords(snapshot, { limit: 3 }, cursors).pagination.nextCursor!;
    const gone = snapshot.table.ids[2]!;
    const reloaded = createSnapshot({ ...catalog, records: catalog.records.filter((record) => record.id !== gone) });
    expect(listRecords(reloaded, { limit: 2, cursor }, cursors).records.map((record) => record.id)).toEqual(snapshot.table.ids.slice(3, 5));
  });

  it('reads a cursor issued before a restart (another codec with the same secret) as the one that issued it', () => {
    const query = { limit: 20, project: 'odd' };
    const cursor = cursorsOf(query, 5).at(-1)!;
    const filters = listFilters(query);
    expect(createCursorCodec('deep-pages').decode(cursor, filters)).toBe(cursors.decode(cursor, filters));
    expect(() => createCursorCodec('deep-pages').decode(cursor, listFilters({ project: 'even' }))).toThrow(/other filters/);
    expect(() => cursors.decode(cursor, listFilters({ project: 'even' }))).toThrow(/other filters/);
  });
});
