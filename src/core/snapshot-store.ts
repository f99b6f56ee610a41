import { mergeOverlay, overlayTooLarge } from './search/overlay-merge.js';
import type { Snapshot } from './snapshot.js';

/**
 * Holds the snapshot being served. A reload or a change swaps the whole object in one assignment. A
 * snapshot whose search overlay grew large is merged in the background (overlay-merge.ts), and the equal
 * snapshot with the merged index takes its place if it is still the one served.
 */
export class SnapshotStore {
  #current: Snapshot;
  #merging: Snapshot | undefined;

  constructor(initial: Snapshot) {
    this.#current = initial;
  }

  get current(): Snapshot {
    return this.#current;
  }

  replace(next: Snapshot): void {
    this.#current = next;
    this.#mergeIfLarge();
  }

  /** The merge under way, if any: tests and benchmarks wait for it. */
  get merging(): Promise<void> | undefined {
    return this.#pending;
  }

  #pending: Promise<void> | undefined;

  #mergeIfLarge(): void {
    const snapshot = this.#current;
    if (this.#merging !== undefined || !overlayTooLarge(snapshot)) return;
    this.#merging = snapshot;
    this.#pending = mergeOverlay(snapshot)
      .then((merged) => {
        if (merged && this.#current === snapshot) this.#current = merged;
      })
      // A failed merge leaves the overlay serving: its answers are the same, only slower to score.
      .catch(() => undefined)
      .finally(() => {
        this.#merging = undefined;
        this.#pending = undefined;
        // Changes that came meanwhile may have grown the overlay of the snapshot now served.
        this.#mergeIfLarge();
      });
  }
}
