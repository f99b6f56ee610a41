// The export's gzip is made in slices that give the event loop back between them; the slices must still
// make one valid gzip file (checked by zlib's CRC and length checks) holding every line in order.
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { CatalogRecord } from '../../src/contract/index.js';
import { exportRecordAt, exportSteps } from '../../src/core/catalog-export.js';
import { recordTable, tableRecord } from '../../src/core/record-table.js';
import { createSnapshot, inListingOrder } from '../../src/core/snapshot.js';

const records: CatalogRecord[] = Array.from({ length: 5500 }, (_, i) => ({
  id: `CVE-2024-${100000 - i}`,
  project: `project-${i % 37}`,
  status: i % 5 === 0 ? 'assigned-no-public-record' : 'public',
  url: i % 5 === 0 ? null : `https://www.cve.org/CVERecord?id=CVE-2024-${100000 - i}`,
  ...(i % 5 === 0 ? {} : { published: '2024-06-01', modified: `2024-07-01T00:00:${String(i % 60).padStart(2, '0')}.000Z` }),
}));

describe('the export of a snapshot', () => {
  it('is one gzip file of every record as a line, in listing order, though deflated in slices', () => {
    const table = recordTable(inListingOrder(records).map(tableRecord));
    const steps = exportSteps(table);
    let slices = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) slices++;
    expect(slices).toBeGreaterThan(1);
    const built = step.value;
    const gzip = Buffer.concat(built.gzip);
    expect(built.gzipBytes).toBe(gzip.length);
    const text = gunzipSync(gzip).toString();
    expect(built.ndjsonBytes).toBe(Buffer.byteLength(text));
    const expected = Array.from({ length: table.size }, (_, position) => `${JSON.stringify(exportRecordAt(table, position))}\n`).join('');
    expect(text).toBe(expected);
  });

  it('is prepared without holding the event loop: a timer set before the build fires before it ends', async () => {
    const snapshot = createSnapshot({ lastVerified: '2025-01-24', records });
    const order: string[] = [];
    setTimeout(() => order.push('timer'), 0);
    await snapshot.export.prepare().then(() => order.push('built'));
    expect(order).toEqual(['timer', 'built']);
    expect(await snapshot.export.prepare()).toBe(await snapshot.export.prepare());
  });
});
