// A sync bounds its heap's growth from its first whole step only (cli/batch-heap.ts): syncSteps calls
// `beforeWhole` before reading a baseline, never before a delta's step.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { releaseFolder } from '../../src/import/sync/release-folder.js';
import { syncSteps } from '../../src/import/sync/sync.js';
import { sqliteMemoryStore } from '../support/store-catalog.js';
import { writeBaseline, writeDelta } from '../support/upstream.js';

const A = { id: 'CVE-2026-1001', product: 'widget', vendor: 'acme', updated: '2026-11-19T10:00:00.000Z' };
const B = { id: 'CVE-2026-1002', product: 'gadget', vendor: 'acme', updated: '2026-11-20T01:10:00.000Z' };

describe('a sync before each step', () => {
  it('calls beforeWhole before a baseline is read, and not before a delta', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'whole-steps-'));
    writeBaseline(dir, '2026-11-20', [A]);
    writeDelta(dir, '2026-11-20_delta_CVEs_at_0200Z.zip', [B]);
    const store = sqliteMemoryStore();
    let calls = 0;
    const seen: [string, number][] = [];
    for await (const step of syncSteps(store, releaseFolder(dir), { workers: 0 }, { beforeWhole: () => calls++ }))
      seen.push([step.label, calls]);
    expect(seen).toEqual([
      ['2026-11-20_all_CVEs_at_midnight.zip.zip', 1],
      ['2026-11-20_delta_CVEs_at_0200Z.zip', 1],
    ]);
    await store.close();
  });
});
