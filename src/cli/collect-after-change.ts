// A full collection once the first snapshot's index is built, and once a change has replaced the snapshot
// served: the build's own arrays (hundreds of MB at 340,000 records) are garbage then, and so is the snapshot
// replaced (its columns and lists, about 30 MB of typed arrays at 340,000 records). V8 collects such arrays
// only once about 64 MB of them have piled up, so a served process's memory swung by that much from one
// change to the next (docs/PERFORMANCE.md, "Memory over many deltas ... stop 39"). One collection per change
// (a full one of the served process costs tens of milliseconds at 340,000 records), none per request:
// upstream changes hourly. V8's collector is reached as the tests reach it (--expose-gc set now, the
// function read in a new context).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { SnapshotStore } from '../core/snapshot-store.js';

let collect: (() => void) | undefined;
let scheduled = false;

/** A full collection, now. */
export function collectNow(): void {
  if (collect === undefined) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}

/** A full collection after this turn (one for a burst of calls), once whoever asked has let its garbage go. */
export function collectSoon(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(() => {
    scheduled = false;
    collectNow();
  });
}

/** Collects the garbage of each replaced snapshot right after the swap; returns the function that stops it. */
export function collectAfterChanges(store: SnapshotStore): () => void {
  return store.onReplace(collectSoon);
}
