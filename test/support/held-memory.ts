// What the test process holds once garbage is collected: a memory bound checked on this, not on heapUsed
// read at a moment, fails only for what is kept (heapUsed counts garbage the collector has not reached yet).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
/** A full collection, now (V8's gc, exposed to this process). */
export const collectGarbage = runInNewContext('gc') as () => void;

/** What the process holds after a full collection: the JS heap and buffers. */
export function heldBytes(): number {
  collectGarbage();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}
