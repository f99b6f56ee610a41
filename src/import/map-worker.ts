// A worker thread of the importer: inflates, decodes, parses and maps batches of entries (most of an
// import's work), so an import keeps every core busy while the main thread reads archives.
import { parentPort, workerData } from 'node:worker_threads';
import { entryMapper, type Selection } from './entry-mapping.js';
import type { InputEntry } from './inputs.js';

const map = entryMapper(workerData as Selection);
parentPort?.on('message', (batch: InputEntry[]) => {
  parentPort?.postMessage(batch.map(map));
});
