import type { Snapshot } from './snapshot.js';

/** Holds the snapshot being served. A reload swaps the whole object in one assignment. */
export class SnapshotStore {
  #current: Snapshot;

  constructor(initial: Snapshot) {
    this.#current = initial;
  }

  get current(): Snapshot {
    return this.#current;
  }

  replace(next: Snapshot): void {
    this.#current = next;
  }
}
