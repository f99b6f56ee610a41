import { describe, expect, it } from 'vitest';
import { batchGet } from '../../src/core/batch.js';
import { createSnapshot } from '../../src/core/snapshot.js';
import { fixtureCatalog } from '../support/app.js';

const snapshot = createSnapshot(fixtureCatalog);

describe('batch get (spec rule 3)', () => {
  it('splits ids into records found and missing, both in request order', () => {
    const result = batchGet(snapshot, ['CVE-2022-4450', 'CVE-1999-0001', 'CVE-2025-10000', 'CVE-2000-0002']);
    expect(result.records.map((r) => r.id)).toEqual(['CVE-2022-4450', 'CVE-2025-10000']);
    expect(result.missing).toEqual(['CVE-1999-0001', 'CVE-2000-0002']);
  });

  it('counts a record of either status as found', () => {
    expect(batchGet(snapshot, ['CVE-2023-0001']).records).toEqual([
      { id: 'CVE-2023-0001', project: 'openssl', status: 'assigned-no-public-record', url: null },
    ]);
  });

  it('returns only the public fields of a record', () => {
    expect(Object.keys(batchGet(snapshot, ['CVE-2024-50000']).records[0]!)).toEqual(['id', 'project', 'status', 'url']);
  });
});
