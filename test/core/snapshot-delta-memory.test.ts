// What a small change allocates, and that it leaves the snapshot before it as it was. A server following
// upstream applies a change every few minutes for weeks: each one's allocations are freed into malloc's
// arenas, which is how its memory grew (docs/PERFORMANCE.md, "Memory over many deltas, stop 35").
import { describe, expect, it } from 'vitest';
import { syntheticRecord } from '../../bench/synthetic-catalog.js';
import type { CatalogFile, CatalogRecord } from '../../src/contract/index.js';
import { createSnapshot, prepareSnapshot } from '../../src/core/snapshot.js';
import { applyChange, type SnapshotChange } from '../../src/core/snapshot-delta.js';
import { expectSameAnswers, mergeCatalog } from '../support/snapshot-views.js';
import { typedArrayBytes } from '../support/typed-array-bytes.js';

const catalogOf = (size: number): CatalogFile => ({
  lastVerified: '2025-01-24',
  records: Array.from({ length: size }, (_, i) => syntheticRecord(i)),
});

/** `count` records changed (a new summary and modified time) and `count` new ids, for change `n`. */
function changeOf(catalog: CatalogFile, n: number, count: number): SnapshotChange {
  const changed: CatalogRecord[] = Array.from({ length: count }, (_, i) => {
    const record = catalog.records[(n * 97 + i * 31) % catalog.records.length]!;
    return { ...record, summary: `${record.summary} (changed ${n})`, modified: `2026-01-0${1 + (n % 9)}T00:00:00.000Z` };
  });
  const fresh = Array.from({ length: count }, (_, i) => ({ ...syntheticRecord(i), id: `CVE-2026-${100_000 + n * 100 + i}` }));
  return { sequence: n + 1, lastVerified: '2025-01-24', upserted: [...changed, ...fresh], removed: [] };
}

describe('a small change', () => {
  it('allocates typed arrays in proportion to the catalog, with nothing of a fixed large size', async () => {
    // At 20,000 records a change of 20 records allocated 10.2 MB of typed arrays, 8 MB of them the two
    // 4 MB chunks the search overlay's tokeniser started with; its columns, id index, hashes, filter
    // lists, change order and overlay are about 105 bytes a record.
    const catalog = catalogOf(20_000);
    let snapshot = createSnapshot(catalog);
    await prepareSnapshot(snapshot);
    const bytes = await typedArrayBytes(async () => {
      snapshot = applyChange(snapshot, changeOf(catalog, 0, 10));
      await prepareSnapshot(snapshot);
    });
    expect(bytes).toBeGreaterThan(0);
    expect(bytes / snapshot.size).toBeLessThan(150);
  });

  it('leaves the snapshot before it answering as before, through many changes after it', async () => {
    const catalog = catalogOf(2_000);
    const before = createSnapshot(catalog);
    await prepareSnapshot(before);
    const expected = createSnapshot(catalog);
    let snapshot = before;
    let merged = catalog;
    for (let n = 0; n < 12; n++) {
      const change = changeOf(catalog, n, 25);
      snapshot = applyChange(snapshot, change);
      await prepareSnapshot(snapshot);
      merged = mergeCatalog(merged, change);
    }
    const queries = ['heap overflow', 'curl parser', 'openssl'];
    const lists = [{}, { project: 'curl' }, { severity: 'high' as const }, { published_since: '2024-03-01' }];
    // The first snapshot still answers as one built from the catalog before the changes, the last as
    // one built from the catalog after them: no change wrote into what an earlier snapshot reads.
    expectSameAnswers(before, expected, catalog, queries, lists);
    expectSameAnswers(snapshot, createSnapshot(merged), merged, queries, lists);
  });
});
