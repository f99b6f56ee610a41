// A served process collects the snapshot a change replaced right after the swap, rather than once V8 has let
// about 64 MB of such snapshots' arrays pile up: the replaced snapshot's table is gone without any collection
// asked for by the test. And it collects once its first index is built (the build's arrays).
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { expect, it } from 'vitest';
import { SnapshotStore } from '../../src/core/snapshot-store.js';
import { addRecordAndReload, serveFixtureFile } from '../support/served-file.js';

it('collects the replaced snapshot right after a change is served', { timeout: 60_000 }, async () => {
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
  const { app, file } = await serveFixtureFile();
  try {
    expect((await app.inject('/ask?query=curl')).statusCode).toBe(200);
    await addRecordAndReload(app, file);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(replaced).toHaveLength(1);
    expect(replaced[0]!.deref()).toBeUndefined();
  } finally {
    Object.defineProperty(SnapshotStore.prototype, 'replace', replace);
    await app.close();
  }
});

it('collects once the first index is built', { timeout: 60_000 }, async () => {
  const { app } = await serveFixtureFile();
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
