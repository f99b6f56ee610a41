import { type MergedBase, mergedBase, mergeOverlay, overlayTooLarge, rebased, wantsRebase } from './search/overlay-merge.js';
import type { Snapshot } from './snapshot.js';

/**
 * Holds the snapshot being served. A reload or a change swaps the whole object in one assignment; whoever
 * follows the changes (the change streams) is told after each swap, synchronously, so that what it reads of
 * `current` right then is the snapshot just swapped in. A snapshot whose search overlay grew large is merged
 * in the background (overlay-merge.ts), and the equal snapshot with the merged index takes its place if it
 * is still the one served (the same records: no one is told); a snapshot served since, or swapped in later
 * by a change that began before the merge ended, is rebased onto the merged index the same way.
 */
export class SnapshotStore {
  #current: Snapshot;
  /** The last merge's index, for the snapshots of its chain not yet layered on it. */
  #base: MergedBase | undefined;
  readonly #listeners = new Set<(next: Snapshot, previous: Snapshot) => void>();

  constructor(initial: Snapshot) {
    this.#current = initial;
  }

  get current(): Snapshot {
    return this.#current;
  }

  replace(next: Snapshot): void {
    const previous = this.#current;
    this.#current = next;
    this.#keepIndex();
    for (const listener of this.#listeners) listener(next, previous);
  }

  /** Calls `listener` after every swap; returns the function that stops it. */
  onReplace(listener: (next: Snapshot, previous: Snapshot) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The merge or rebase under way, if any: tests and benchmarks wait for it. */
  get merging(): Promise<void> | undefined {
    return this.#pending;
  }

  #pending: Promise<void> | undefined;

  /** Starts what the served snapshot's index needs, one thing at a time: a rebase onto the last merge, or a merge. */
  #keepIndex(): void {
    const snapshot = this.#current;
    if (this.#pending !== undefined) return;
    if (this.#base !== undefined && snapshot.ids.numbers !== this.#base.ids.numbers) this.#base = undefined;
    const base = this.#base;
    let next: Promise<Snapshot | undefined>;
    if (base !== undefined && wantsRebase(snapshot, base)) next = rebased(snapshot, base);
    else if (overlayTooLarge(snapshot))
      next = mergeOverlay(snapshot).then((merged) => {
        if (merged) this.#base = mergedBase(merged);
        return merged;
      });
    else return;
    this.#pending = next
      .then((indexed) => {
        if (indexed && this.#current === snapshot) this.#current = indexed;
      })
      // A failed merge or rebase leaves the overlay serving: its answers are the same, only slower to score;
      // the base is let go, so that a rebase failing is not tried again and again.
      .catch(() => {
        this.#base = undefined;
      })
      .finally(() => {
        this.#pending = undefined;
        // Changes that came meanwhile: the snapshot now served may want a rebase, or its overlay a merge.
        this.#keepIndex();
      });
  }
}
