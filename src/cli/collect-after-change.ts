// A full collection once a change has replaced the snapshot served. The snapshot replaced is garbage then,
// its columns and lists about 30 MB of typed arrays at 340,000 records, and V8 collects such arrays only once
// about 64 MB of them have piled up: a served process's memory swung by that much from one change to the
// next (docs/PERFORMANCE.md, "Memory over many deltas ... stop 39"). One collection per change (a full one
// of the served process costs 10 to 30 ms at 340,000 records), not per request: upstream changes hourly.
// V8's collector is reached as the tests reach it (--expose-gc set now, the function read in a new context).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { SnapshotStore } from '../core/snapshot-store.js';

let collect: (() => void) | undefined;

/** Collects the garbage of each replaced snapshot right after the swap; returns the function that stops it. */
export function collectAfterChanges(store: SnapshotStore): () => void {
  if (collect === undefined) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  const gc = collect;
  let pending: NodeJS.Immediate | undefined;
  // After the swap's own turn, once whoever swapped it has let the previous snapshot go; one for a burst of swaps.
  return store.onReplace(() => {
    pending ??= setImmediate(() => {
      pending = undefined;
      gc();
    });
  });
}
