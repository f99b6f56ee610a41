// Where a sync reads upstream from, and the one shape every kind of upstream takes: the steps to apply
// after a cursor, oldest first, each read as CVE JSON 5 entries and each naming where it brings the cursor.
import type { SyncCursor } from '../../contract/index.js';
import type { InputEntry } from '../inputs.js';

export type CursorPlace = Pick<SyncCursor, 'baseline' | 'delta' | 'commit'>;

export interface UpstreamStep {
  /** What the step is, for logs: a release's file name, a commit range. */
  readonly label: string;
  /** A baseline or a whole tree: it holds every record, not only what changed. */
  readonly whole: boolean;
  entries(): AsyncIterable<InputEntry>;
  /** The cursor's place once this step is applied. */
  readonly reaches: CursorPlace;
  /** Frees what the step brought here (a download), once it is applied. */
  release(): Promise<void>;
}

export interface Upstream {
  /** Names the upstream in the cursor and in logs. */
  readonly name: string;
  /** The steps after the cursor, made one at a time (a download waits until its step is reached). */
  steps(cursor: CursorPlace | undefined): AsyncIterable<UpstreamStep>;
}

export class UpstreamError extends Error {}
