// Batches of entries mapped by worker threads (map-worker.ts), their outcomes handed back in the order
// the batches were sent, so an import with workers reads exactly like one without: the first copy of an
// id wins. At most a few batches per worker are in flight, so entries never pile up in memory.
import { Worker } from 'node:worker_threads';
import { type EntryOutcome, entryMapper, type Selection } from './entry-mapping.js';
import type { InputEntry } from './inputs.js';

export interface MappingPool {
  /** Sends a batch; resolves when the pool can take another. */
  send(batch: InputEntry[]): Promise<void>;
  /** Says no batch follows: outcomes() ends once the last is handed back, and the workers stop. */
  end(): void;
  /** Outcomes of the batches sent, in order, as they are ready. */
  outcomes(): AsyncGenerator<EntryOutcome[], void, undefined>;
}

const IN_FLIGHT_PER_WORKER = 2;

/** `workers` 0 maps in this thread (the library default; the CLI uses one worker per core). */
export function mappingPool(selection: Selection, workers: number): MappingPool {
  const queue: Promise<EntryOutcome[]>[] = [];
  let ended = false;
  let wakeReader: (() => void) | undefined;
  let wakeSender: (() => void) | undefined;
  const wake = (which: 'reader' | 'sender') => {
    const resolve = which === 'reader' ? wakeReader : wakeSender;
    if (which === 'reader') wakeReader = undefined;
    else wakeSender = undefined;
    resolve?.();
  };

  const map = workers <= 0 ? entryMapper(selection) : undefined;
  const threads = map
    ? []
    : Array.from(
        { length: workers },
        // A small young generation: a worker's garbage is a batch's, and the default space kept about
        // 100 MB more per worker at 340,000 records for no gain in speed.
        () =>
          new Worker(new URL('./map-worker.js', import.meta.url), {
            workerData: selection,
            resourceLimits: { maxYoungGenerationSizeMb: 8 },
          }),
      );
  const waiting = threads.map(() => [] as { resolve: (outcomes: EntryOutcome[]) => void; reject: (error: Error) => void }[]);
  threads.forEach((thread, i) => {
    thread.on('message', (outcomes: EntryOutcome[]) => waiting[i]!.shift()?.resolve(outcomes));
    thread.on('error', (error) => {
      for (const { reject } of waiting[i]!.splice(0)) reject(error);
    });
  });
  let next = 0;

  return {
    async send(batch) {
      if (map) {
        queue.push(Promise.resolve(batch.map(map)));
      } else {
        while (queue.length >= threads.length * IN_FLIGHT_PER_WORKER) {
          await new Promise<void>((resolve) => {
            wakeSender = resolve;
          });
        }
        const i = next++ % threads.length;
        queue.push(new Promise((resolve, reject) => waiting[i]!.push({ resolve, reject })));
        threads[i]!.postMessage(batch, transferable(batch));
      }
      wake('reader');
    },
    end() {
      ended = true;
      wake('reader');
    },
    async *outcomes() {
      try {
        for (;;) {
          const head = queue.shift();
          if (head) {
            wake('sender');
            yield await head;
            continue;
          }
          if (ended) return;
          await new Promise<void>((resolve) => {
            wakeReader = resolve;
          });
        }
      } finally {
        for (const thread of threads) void thread.terminate();
      }
    },
  };
}

/** The entries' buffers that can move to the worker without a copy (each owned whole by its entry). */
function transferable(batch: readonly InputEntry[]): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const item of batch) {
    if (!('packed' in item)) continue;
    const { buffer, byteOffset, byteLength } = item.packed.data;
    if (buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength) buffers.push(buffer);
  }
  return buffers;
}
