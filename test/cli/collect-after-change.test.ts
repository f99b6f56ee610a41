// A served process collects the snapshot a change replaced right after the swap, rather than once V8 has let
// about 64 MB of such snapshots' arrays pile up: the replaced snapshot's table is gone without any collection
// asked for by the test. And it collects once its first index is built (the build's arrays).
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { expect, it } from 'vitest';
import { catalogJson } from '../../src/catalog/json/catalog-writer.js';
import { serve } from '../../src/cli/serve.js';
import { SnapshotStore } from '../../src/core/snapshot-store.js';
import { fixtureCatalog, testConfig } from '../support/app.js';

it('collects the replaced snapshot right after a change is served', { timeout: 60_000 }, async () => {
  const file = join(await mkdtemp(join(tmpdir(), 'collect-after-change-')), 'catalog.json');
  await writeFile(file, catalogJson(fixtureCatalog));
  // Each replaced snapshot's table, held weakly.
  const replaced: WeakRef<object>[] = [];
  const replace = Object.getOwnPropertyDescriptor(SnapshotStore.prototype, 'replace')!;
  Object.defineProperty(SnapshotStore.prototype, 'replace', {
    ...replace,
    value(this: SnapshotStore, next: Parameters<SnapshotStore['replace']>[0]) {
      replaced.push(new WeakRef(this.current.table));
      return replace.value.call(this, next);
    },
  });
  const app = await serve(testConfig({ recordsFile: file }));
  try {
    expect((await app.inject('/ask?query=curl')).statusCode).toBe(200);
    const added = {
      id: 'CVE-2025-20000',
      project: 'curl',
      status: 'public' as const,
      url: 'https://www.cve.org/CVERecord?id=CVE-2025-20000',
    };
    await writeFile(file, catalogJson({ ...fixtureCatalog, records: [...fixtureCatalog.records, added] }));
    process.emit('SIGHUP');
    while ((await app.inject(`/api/v1/cve-records/${added.id}`)).statusCode !== 200)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(replaced).toHaveLength(1);
    expect(replaced[0]!.deref()).toBeUndefined();
  } finally {
    Object.defineProperty(SnapshotStore.prototype, 'replace', replace);
    await app.close();
  }
});

it('collects once the first index is built', { timeout: 60_000 }, async () => {
  const file = join(await mkdtemp(join(tmpdir(), 'collect-after-start-')), 'catalog.json');
  await writeFile(file, catalogJson(fixtureCatalog));
  const app = await serve(testConfig({ recordsFile: file }));
  const major: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if ((entry as unknown as { detail?: { kind: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)
        major.push(entry.startTime);
  });
  observer.observe({ entryTypes: ['gc'] });
  try {
    // /ask answers once the first index is built; the collection follows within a few turns (2 s for a busy machine).
    expect((await app.inject('/ask?query=curl')).statusCode).toBe(200);
    for (let waited = 0; major.length === 0 && waited < 2000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(major.length).toBeGreaterThan(0);
  } finally {
    observer.disconnect();
    await app.close();
  }
});
