// The search overlay after many changes ranks as a full rebuild does: the realistic queries of the
// benchmark over the shipped catalog, after 20 changes, before and after the overlay is merged.
// And a snapshot made by changes holds none of the snapshots before it, and a merge that changes overtook
// is not lost: the snapshot served by then is rebased onto it. A merge runs on the thread that serves.
import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { REALISTIC_QUERIES } from '../../bench/corpus-figures.js';
import type { CatalogFile, CatalogRecord } from '../../src/contract/index.js';
import { recordHash } from '../../src/core/content-hash.js';
import { tableRecord } from '../../src/core/record-table.js';
import { OverlayTextIndex } from '../../src/core/search/overlay-index.js';
import { mergeOverlay } from '../../src/core/search/overlay-merge.js';
import { search } from '../../src/core/search/search.js';
import { StoredTextIndex } from '../../src/core/search/text-index.js';
import { createSnapshot, prepareSnapshot, type Snapshot } from '../../src/core/snapshot.js';
import { applyChange, applyRows, type SnapshotChange } from '../../src/core/snapshot-delta.js';
import { SnapshotStore } from '../../src/core/snapshot-store.js';
import { loadDefaultCatalog } from '../support/app.js';
import { collectGarbage } from '../support/held-memory.js';
import { mergeCatalog } from '../support/snapshot-views.js';

/** A small deterministic generator, so a failure names the change that made it. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/**
 * A change of the kind upstream publishes: records rewritten (another record's summary, sometimes another
 * project), a few rejected, a few new ones under new ids and now and then a new project.
 */
function changeOf(catalog: CatalogFile, step: number, next: () => number): SnapshotChange {
  const pick = () => catalog.records[Math.floor(next() * catalog.records.length)]!;
  const upserted = new Map<string, CatalogRecord>();
  const modified = new Date(Date.UTC(2026, 0, 1, step)).toISOString();
  for (let i = 0; i < 25; i++) {
    const record = pick();
    const donor = pick();
    upserted.set(record.id, {
      ...record,
      summary: `${donor.summary ?? ''} ${next() < 0.3 ? 'heap overflow' : ''}`.trim(),
      ...(next() < 0.2 ? { project: donor.project } : {}),
      modified,
    });
  }
  for (let i = 0; i < 5; i++) {
    const donor = pick();
    const id = `CVE-2026-${90_000 + step * 10 + i}`;
    upserted.set(id, {
      ...donor,
      id,
      url: `https://www.cve.org/CVERecord?id=${id}`,
      modified,
      ...(i === 0 ? { project: `Newproject${step}` } : {}),
    });
  }
  const removed = Array.from({ length: 5 }, pick)
    .filter((record) => !upserted.has(record.id))
    .map((record) => ({ id: record.id, modified }));
  return { sequence: step, lastVerified: catalog.lastVerified, upserted: [...upserted.values()], removed };
}

/** A change large enough to be merged: the first 2,100 records given other records' summaries, marked. */
function largeChange(catalog: CatalogFile, mark: string): SnapshotChange {
  const modified = new Date(Date.UTC(2026, 0, 2)).toISOString();
  return {
    sequence: 1,
    lastVerified: catalog.lastVerified,
    upserted: catalog.records
      .slice(0, 2100)
      .map((record, i) => ({ ...record, summary: `${catalog.records[i + 2100]!.summary} ${mark}`, modified })),
    removed: [],
  };
}

/** The top 10 of each realistic query: ids and scores. */
function topTens(snapshot: Snapshot): [string, number][][] {
  return REALISTIC_QUERIES.map((query) => search(snapshot, query, 10).hits.map((hit) => [hit.entry.record.id, hit.score]));
}

describe('search after changes', () => {
  let sample: CatalogFile;
  beforeAll(async () => {
    sample = await loadDefaultCatalog();
  });

  it('ranks the realistic queries as a full rebuild does, after 20 changes, through a merge', {
    timeout: 600_000,
  }, async () => {
    const next = random(25);
    let catalog = sample;
    let snapshot = createSnapshot(catalog);
    for (let step = 1; step <= 20; step++) {
      const change = changeOf(catalog, step, next);
      catalog = mergeCatalog(catalog, change);
      snapshot = applyChange(snapshot, change);
      if (step === 10) {
        expect(snapshot.search.get().text).toBeInstanceOf(OverlayTextIndex);
        expect(topTens(snapshot), 'after change 10').toEqual(topTens(createSnapshot(catalog)));
        // The overlay goes into a layer beside the base, which stays as it was (masked where changed).
        const base = (snapshot.search.get().text as OverlayTextIndex).layout.layers[0]!.index;
        snapshot = (await mergeOverlay(snapshot))!;
        const { layers } = (snapshot.search.get().text as OverlayTextIndex).layout;
        expect(layers.map((layer) => layer.positionOf.length)).toEqual([base.data.projectLengths.length, expect.any(Number), 0]);
        expect(layers[0]!.index).toBe(base);
        expect(topTens(snapshot), 'after the merge').toEqual(topTens(createSnapshot(catalog)));
      }
      if (step === 15) {
        // And a later overlay into that layer again.
        const [base, layer] = (snapshot.search.get().text as OverlayTextIndex).layout.layers;
        snapshot = (await mergeOverlay(snapshot))!;
        const { layers } = (snapshot.search.get().text as OverlayTextIndex).layout;
        expect(layers).toHaveLength(3);
        expect(layers[0]!.index).toBe(base!.index);
        expect(layers[1]!.positionOf.length).toBeGreaterThan(layer!.positionOf.length);
      }
    }
    const rebuilt = createSnapshot(catalog);
    expect(topTens(snapshot), 'after change 20').toEqual(topTens(rebuilt));
    // Merged whole, the base is the one a rebuild makes, array for array, less the scores; every word's
    // postings read through it are the rebuild's, scores and block maxima included.
    const merged = (await mergeOverlay(snapshot, true))!.search.get().text as OverlayTextIndex;
    const built = rebuilt.search.get().text as StoredTextIndex;
    const { words, starts, docs, counts, projectLengths, summaryLengths } = built.data;
    expect(merged.layout.layers).toHaveLength(2);
    expect(merged.layout.layers[0]!.index.data).toEqual({ words, starts, docs, counts, projectLengths, summaryLengths });
    expect(merged.layout.layers[0]!.index).not.toBeInstanceOf(StoredTextIndex);
    expect(merged.words).toEqual(words);
    for (const word of words) {
      const { docs, scores, blockMax, maxScore } = merged.postings(word)!;
      const expected = built.postings(word)!;
      expect({ docs, scores, blockMax, maxScore }, word).toEqual({ ...expected });
      expect(merged.frequency(word)).toBe(built.frequency(word));
    }
  });

  it('merges on the thread that serves, in steps between its other work, starting no thread', { timeout: 120_000 }, async () => {
    // A worker thread's malloc arena kept the merged index it allocated (and its copy of the base) resident
    // for good: 380 MB of such arenas after 100 changes at 340,000 records (docs/PERFORMANCE.md, "Memory over
    // many deltas, stop 36").
    const workerThreads = () =>
      readdirSync('/proc/self/task').filter((task) => readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim() === 'WorkerThread')
        .length;
    const next = random(3);
    let catalog = sample;
    let snapshot = createSnapshot(catalog);
    for (let step = 1; step <= 3; step++) {
      const change = changeOf(catalog, step, next);
      catalog = mergeCatalog(catalog, change);
      snapshot = applyChange(snapshot, change);
    }
    await snapshot.search.prepare();
    const before = workerThreads();
    let most = before;
    let turns = 0;
    let done = false;
    const merging = mergeOverlay(snapshot).finally(() => {
      done = true;
    });
    while (!done) {
      most = Math.max(most, workerThreads());
      turns++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    // The merged index is compared with a rebuild's, array for array, by the first test.
    expect((await merging)!.search.get().text).toBeInstanceOf(OverlayTextIndex);
    expect(most).toBe(before);
    expect(turns).toBeGreaterThan(10);
  });

  it('holds none of the snapshots before it once its own index is built', { timeout: 120_000 }, async () => {
    const next = random(7);
    let catalog = sample;
    let snapshot = createSnapshot(catalog);
    const first = new WeakRef(snapshot);
    const [firstDocs, firstScores] = (({ docs, scores }) => [new WeakRef(docs), new WeakRef(scores)])(
      (snapshot.search.get().text as StoredTextIndex).data,
    );
    for (let step = 1; step <= 3; step++) {
      const change = changeOf(catalog, step, next);
      catalog = mergeCatalog(catalog, change);
      snapshot = applyChange(snapshot, change);
      await snapshot.search.prepare();
      await snapshot.changes.prepare();
    }
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(first.deref()).toBeUndefined();
    // The first index's postings are the base the overlay reads: kept while snapshots read them; its scores,
    // which a layered index never reads, are not.
    expect(firstDocs.deref()).toBeDefined();
    expect(firstScores.deref()).toBeUndefined();
    expect(snapshot.search.get().text).toBeInstanceOf(OverlayTextIndex);
  });

  it('holds not the index of the snapshot before it when its texts are read from a store', { timeout: 120_000 }, async () => {
    // A store's texts keep the hash of each position they were given; the function that gave it once kept
    // the whole scope it was made in, the previous snapshot's index included.
    const next = random(5);
    let catalog = sample;
    let snapshot = applyChange(createSnapshot(catalog), changeOf(catalog, 1, next));
    await snapshot.search.prepare();
    const previousIndex = new WeakRef(snapshot.search.get().text);
    const change = changeOf(catalog, 2, next);
    catalog = mergeCatalog(catalog, change);
    const byId = new Map(catalog.records.map((record) => [record.id, record.summary]));
    const upserted = change.upserted.map((record) => ({ record: tableRecord(record), hash: recordHash(record, undefined) }));
    // The store's texts: each summary by id, the hash function kept as a store's texts keep it.
    snapshot = applyRows(snapshot, { ...change, upserted }, (ids, hashOf) => ({
      summary: (position) => (hashOf(position) === undefined ? undefined : byId.get(ids[position]!)),
      details: () => undefined,
    }));
    await prepareSnapshot(snapshot);
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(previousIndex.deref()).toBeUndefined();
    expect(snapshot.search.get().text).toBeInstanceOf(OverlayTextIndex);
  });

  it('keeps of a merge only its text index once a change replaced the merged snapshot', { timeout: 600_000 }, async () => {
    // The merged snapshot's vocabulary (built whole by the merge) went with the store's base until the next
    // merge, beside the served snapshot's own.
    const first = createSnapshot(sample);
    await first.search.prepare();
    const store = new SnapshotStore(first);
    const large = largeChange(sample, 'again');
    const catalog = mergeCatalog(sample, large);
    const changed = applyChange(first, large);
    await changed.search.prepare();
    store.replace(changed);
    while (store.merging) await store.merging;
    // The merged layer: the overlay's records, beside the first index (a new base past a share of the records).
    const mergedText = (store.current.search.get().text as OverlayTextIndex).layout.layers.at(-2)!.index;
    expect(mergedText).not.toBe(first.search.get().text);
    const vocabulary = new WeakRef(store.current.search.get().vocabulary);
    const next = applyChange(store.current, changeOf(catalog, 2, random(3)));
    await next.search.prepare();
    store.replace(next);
    while (store.merging) await store.merging;
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(vocabulary.deref()).toBeUndefined();
    expect((store.current.search.get().text as OverlayTextIndex).layout.layers.at(-2)!.index).toBe(mergedText);
  });

  it('rebases the snapshots served while a merge ran onto the merged index, instead of dropping the merge', {
    timeout: 600_000,
  }, async () => {
    const next = random(11);
    const first = createSnapshot(sample);
    await first.search.prepare();
    const store = new SnapshotStore(first);
    // A change large enough to be merged (2,100 records rewritten), then two of upstream's size.
    const large = largeChange(sample, 'rewritten');
    let catalog = mergeCatalog(sample, large);
    const merged = applyChange(first, large);
    const steps: Snapshot[] = [];
    for (let step = 2; step <= 3; step++) {
      const change = changeOf(catalog, step, next);
      catalog = mergeCatalog(catalog, change);
      steps.push(applyChange(steps.at(-1) ?? merged, change));
    }
    for (const snapshot of [merged, ...steps]) await snapshot.search.prepare();
    // The merge starts, and a change is served before it ends; another, made before the merge ended, after.
    store.replace(merged);
    expect(store.merging).toBeDefined();
    store.replace(steps[0]!);
    while (store.merging) await store.merging;
    const rebasedOnce = store.current.search.get().text as OverlayTextIndex;
    expect(rebasedOnce.overlaySize).toBeLessThanOrEqual(30);
    store.replace(steps[1]!);
    while (store.merging) await store.merging;

    const served = store.current;
    expect(served.version).toBe(steps[1]!.version);
    const text = served.search.get().text as OverlayTextIndex;
    // It reads the merged layer, its overlay only what the two small changes brought (30 records each at most).
    const mergedLayer = text.layout.layers.at(-2)!.index;
    expect(mergedLayer).toBe(rebasedOnce.layout.layers.at(-2)!.index);
    expect(mergedLayer).not.toBe(first.search.get().text);
    expect(text.overlaySize).toBeLessThanOrEqual(60);
    expect(topTens(served)).toEqual(topTens(createSnapshot(catalog)));
  });
});
