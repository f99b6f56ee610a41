// The records a version affects with the entry that matched (what the A2A skill and the page say): counted
// as the list counts them, the first of them in listing order, each with the range that holds the version.
import { describe, expect, it } from 'vitest';
import { createCursorCodec } from '../../src/core/cursor.js';
import { listRecords } from '../../src/core/list.js';
import { createSnapshot } from '../../src/core/snapshot.js';
import { affectedWithReasons } from '../../src/core/version-checks.js';
import { loadDefaultCatalog } from '../support/app.js';

describe('affected records with reasons', () => {
  it('counts and orders them as the list does, each with the entry that matched', async () => {
    const snapshot = createSnapshot(await loadDefaultCatalog());
    const cursors = createCursorCodec('version-reasons');
    for (const query of [
      { project: 'OpenSSL', version: '3.0.7' },
      { project: 'Linux', version: '6.1.5' },
    ]) {
      const { reasons, total } = await affectedWithReasons(snapshot, query, 5);
      const page = listRecords(snapshot, { ...query, limit: 5 }, cursors);
      expect(total, query.project).toBe(page.pagination.total);
      expect(reasons).toHaveLength(Math.min(total, 5));
      expect(total).toBeGreaterThan(0);
      expect(reasons.map((reason) => snapshot.table.ids[reason.position])).toEqual(page.records.map((record) => record.id));
      for (const { reason } of reasons) expect(reason).toMatch(/affected|names this version/);
    }
  });
});
