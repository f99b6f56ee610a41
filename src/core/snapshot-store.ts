import type { Snapshot } from './snapshot.js';

/**
 * Holds the snapshot being served. A reload swaps the whole object in one assignment; whoever follows the
 * changes (the change streams, MCP subscriptions) is told after each swap, synchronously, so that what it
 * reads of `current` right then is the snapshot just swapped in.
 */
export class SnapshotStore {
  #current: Snapshot;
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
    for (const listener of this.#listeners) listener(next, previous);
  }

  /** Calls `listener` after every swap; returns the function that stops it. */
  onReplace(listener: (next: Snapshot, previous: Snapshot) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
