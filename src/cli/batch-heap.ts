// A batch command (import, sync) builds a corpus-sized working set once and drops most of what it reads as
// it goes. V8 lets the old generation grow to up to four times what was live at the last full collection
// before the next one: at 340,000 records a first sync's heap reached 1.4 GB for 380 MB live, all of it
// garbage promoted while the mapping threads' records were taken in. Grown by half at most, the same sync
// peaked at 0.83 GB instead of 1.5 to 1.7 GB of RSS, for a few more full collections (docs/PERFORMANCE.md,
// "The lead's work, stop 36"). Not for `serve`: its heap holds steady, and its answers would pay for them.
// A sync bounds it from its first whole step (a baseline) only: a delta's step holds a few MB, and bounded
// from the process's start (14 MB live) it grew past the bound and paid a full collection in the step
// (docs/PERFORMANCE.md, "The sync step and the start, stop 38").
import { setFlagsFromString } from 'node:v8';

/** The most the old generation grows past what was live at the last full collection, in percent. */
const BATCH_HEAP_GROWTH_PERCENT = 50;

export function boundHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${BATCH_HEAP_GROWTH_PERCENT}`);
}
