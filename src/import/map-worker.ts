// A worker thread of the importer: parses and maps batches of entries (JSON.parse and the mapping are
// most of an import's work), so an import keeps every core busy while the main thread reads archives.
import { parentPort, workerData } from 'node:worker_threads';
import { entryMapper, type Selection } from './entry-mapping.js';

const map = entryMapper(workerData as Selection);
parentPort?.on('message', (batch: { name: string; text: string }[]) => {
  parentPort?.postMessage(batch.map(map));
});
