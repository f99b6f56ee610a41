// Changes as they land: after each swap of the served snapshot, the change feed since the last change
// already told, walked once for every follower (change streams, MCP subscriptions) in pages, so a swap
// costs the size of its change, never the corpus, however many follow it.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ChangePoint } from './change-order.js';
import { type ChangeEntry, latestChange, walkChanges } from './changes.js';
import type { Snapshot } from './snapshot.js';
import type { SnapshotStore } from './snapshot-store.js';

/** Changes that landed, in change order, with the snapshot their positions belong to. */
export interface LandedChanges {
  readonly snapshot: Snapshot;
  readonly entries: readonly ChangeEntry[];
  /** Where this batch ends: the next one starts after it. */
  readonly last: ChangePoint;
}

/** Changes told in one batch at most; a larger swap (a baseline) is told in several, a turn of the event loop apart. */
export const LANDED_BATCH = 500;

export class ChangeFollower {
  readonly #store: SnapshotStore;
  readonly #listeners = new Set<(landed: LandedChanges) => void>();
  readonly #stop: () => void;
  /** The last change told: the next batch starts after it. */
  #told: ChangePoint;
  #walking = false;
  #again = false;

  constructor(store: SnapshotStore) {
    this.#store = store;
    this.#told = latestChange(store.current);
    this.#stop = store.onReplace(() => this.#landed());
  }

  /** Where the changes told so far end. */
  get told(): ChangePoint {
    return this.#told;
  }

  /** Calls `listener` with every batch of changes from now on; returns the function that stops it. */
  follow(listener: (landed: LandedChanges) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    this.#stop();
    this.#listeners.clear();
  }

  #landed(): void {
    if (this.#walking) {
      this.#again = true;
      return;
    }
    this.#walking = true;
    void this.#walk();
  }

  /** Tells the changes after `told` in the snapshot being served, until none is left (a swap during the walk included). */
  async #walk(): Promise<void> {
    try {
      do {
        this.#again = false;
        let more = true;
        while (more) {
          // A turn first: the swap that called is over, and listeners see the snapshot it swapped in.
          await nextTurn();
          const snapshot = this.#store.current;
          const walk = walkChanges(snapshot, this.#told, LANDED_BATCH);
          this.#told = walk.last;
          more = walk.hasMore;
          if (walk.entries.length === 0) continue;
          const landed: LandedChanges = { snapshot, entries: walk.entries, last: walk.last };
          for (const listener of this.#listeners) listener(landed);
        }
      } while (this.#again);
    } finally {
      this.#walking = false;
    }
  }
}
