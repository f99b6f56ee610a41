// What a server builds before it serves a snapshot, and when a change waits for it: the search index is
// one build whoever asks for it, and a change in the first seconds after a start (the start's index still
// being built) is served without waiting for that index.
import { describe, expect, it } from 'vitest';
import { Derived } from '../../src/core/derived.js';
import { search } from '../../src/core/search/search.js';
import { createSnapshot, prepareSnapshot } from '../../src/core/snapshot.js';
import { applyChange } from '../../src/core/snapshot-delta.js';
import { SnapshotStore } from '../../src/core/snapshot-store.js';
import { type CatalogSource, keepCurrent } from '../../src/sources/catalog-source.js';
import { fixtureCatalog } from '../support/app.js';

/** A build of `steps` pauses that counts how often it was started. */
function countedBuild(steps: number) {
  const counts = { started: 0 };
  const derived = new Derived(function* () {
    counts.started++;
    for (let n = 0; n < steps; n++) yield;
    return { built: counts.started };
  });
  return { derived, counts };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('a derived structure', () => {
  it('is built once when a request needs it while a preparation is under way', async () => {
    const { derived, counts } = countedBuild(50);
    const prepared = derived.prepare();
    await nextTurn();
    await nextTurn();
    expect(derived.built).toBe(false);
    const now = derived.get();
    expect(counts.started).toBe(1);
    expect(await prepared).toBe(now);
    expect(derived.built).toBe(true);
  });

  it('gives its build as steps to another build, which pauses where it pauses, and one build for both', async () => {
    const { derived: base, counts } = countedBuild(3);
    const dependent = new Derived(function* () {
      const value = yield* base.steps();
      return { on: value };
    });
    const preparing = base.prepare();
    const steps = dependent.steps();
    let pauses = 0;
    while (steps.next().done !== true) pauses++;
    expect(pauses).toBeGreaterThan(0);
    expect(dependent.get().on).toBe(base.get());
    expect(await preparing).toBe(base.get());
    expect(counts.started).toBe(1);
  });

  it('starts a failed build afresh for the next caller, which sees the failure too', () => {
    let starts = 0;
    const failing = new Derived<number>(function* () {
      starts++;
      yield;
      throw new Error('damaged');
    });
    expect(() => failing.get()).toThrow('damaged');
    expect(() => failing.get()).toThrow('damaged');
    expect(starts).toBe(2);
    expect(failing.built).toBe(false);
  });
});

describe('a change applied to the snapshot being served', () => {
  const [first, ...rest] = fixtureCatalog.records;
  const change = {
    sequence: 1,
    lastVerified: fixtureCatalog.lastVerified,
    upserted: [{ ...first!, id: 'CVE-2099-0001', summary: 'A brand new zebrafish overflow.' }],
    removed: [],
  };

  /** A source whose load applies `change` to the snapshot served, as the store of record's does. */
  function changingSource(): CatalogSource {
    return {
      name: 'test',
      load: async (current) => applyChange(current!, change),
      watch: () => {},
      reachable: () => true,
      close: async () => {},
    };
  }

  it('is served at once when the served snapshot has no index yet, and its index follows in steps', async () => {
    const served = createSnapshot({ ...fixtureCatalog, records: [first!, ...rest] });
    const store = new SnapshotStore(served);
    const starting = served.search.prepare(); // the start's index, under way
    const live = keepCurrent(changingSource(), store, { info: () => {}, error: () => {} }, prepareSnapshot);
    await live.reload('changed');
    expect(store.current).not.toBe(served);
    expect(store.current.get('CVE-2099-0001')).toBeDefined();
    expect(store.current.search.built).toBe(false);
    await store.current.search.prepare();
    expect(search(store.current, 'zebrafish', 5).hits.map((hit) => hit.entry.record.id)).toEqual(['CVE-2099-0001']);
    await starting;
  });

  it('waits for its index when the served snapshot has one: the change costs only its own records', async () => {
    const served = createSnapshot(fixtureCatalog);
    await prepareSnapshot(served);
    const store = new SnapshotStore(served);
    const live = keepCurrent(changingSource(), store, { info: () => {}, error: () => {} }, prepareSnapshot);
    await live.reload('changed');
    expect(store.current.get('CVE-2099-0001')).toBeDefined();
    expect(store.current.search.built).toBe(true);
  });
});
