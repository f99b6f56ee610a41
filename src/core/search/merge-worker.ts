// The thread that merges a snapshot's overlay into a new base index (overlay-merge.ts): given the layout's
// arrays, it returns the merged index's, handed over without a copy.
import { parentPort, workerData } from 'node:worker_threads';
import { mergeLayout, type OverlayLayout } from './overlay-index.js';
import { StoredTextIndex, type TextIndexData } from './text-index.js';

export interface MergeInput extends Omit<OverlayLayout, 'base' | 'overlay'> {
  readonly base: TextIndexData;
  readonly overlay: TextIndexData;
}

const input = workerData as MergeInput;
const merged = mergeLayout({ ...input, base: new StoredTextIndex(input.base), overlay: new StoredTextIndex(input.overlay) });
const { starts, docs, scores, blockStarts, blockMax, counts, projectLengths, summaryLengths } = merged;
parentPort!.postMessage(
  merged,
  [starts, docs, scores, blockStarts, blockMax, counts, projectLengths, summaryLengths].map((array) => array.buffer as ArrayBuffer),
);
