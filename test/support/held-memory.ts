// What the test process holds once garbage is collected: a memory bound checked on this, not on heapUsed
// read at a moment, fails only for what is kept (heapUsed counts garbage the collector has not reached yet).
import { collectNow } from '../../src/cli/collect-after-change.js';

/** A full collection, now (V8's gc, exposed to this process as the served process exposes it). */
export const collectGarbage = collectNow;

/** What the process holds after a full collection: the JS heap and buffers. */
export function heldBytes(): number {
  collectGarbage();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}
