// The store of record in an SQLite file as a source: loaded whole once, then polled for its sequence (one
// row, 13 µs of CPU) twenty times a second; when a step has committed, the rows past the served snapshot's
// sequence are applied to it (store-changes.ts). The sync writing the file may be this process
// (`serve --sync`) or another one (`sync --follow` beside several `serve`s on one machine).
import { openSqliteStore } from '../catalog/sqlite/sqlite-store.js';
import type { TextFile } from '../core/text-file.js';
import type { CatalogSource } from './catalog-source.js';
import { nextSnapshot, startingSnapshot } from './store-changes.js';

/**
 * How often the store's sequence is read: a step is served within about this long of its commit. At 200 ms
 * the wait for the poll was a quarter of the time from a delta's commit to its answers (387 ms at 340,000
 * records); at 50 ms the polls cost an idle server a few hundredths of a percent of a core.
 */
export const POLL_MS = 50;

/** `checkpoint`: a snapshot file of this store to start from (`serve --checkpoint`); `warn` says when it is not used. */
export function sqliteSource(path: string, checkpoint?: string, warn: (message: string) => void = () => {}): CatalogSource {
  const store = openSqliteStore(path);
  const files = new Set<TextFile>();
  let poll: NodeJS.Timeout | undefined;
  /** The sequence last seen by a poll (or a load): a reload is asked for once per sequence, not per poll. */
  let seen: number | undefined;
  return {
    name: path,
    load: async (current) => {
      const { snapshot } =
        current === undefined ? await startingSnapshot(store, checkpoint, files, warn) : await nextSnapshot(store, current, files);
      seen ??= snapshot.sequence;
      return snapshot;
    },
    watch(changed) {
      poll = setInterval(() => {
        void store.state().then(
          (state) => {
            if (seen !== undefined && state.sequence !== seen) {
              seen = state.sequence;
              changed();
            }
          },
          () => {},
        );
      }, POLL_MS);
      poll.unref();
    },
    reachable: () => true,
    async close() {
      clearInterval(poll);
      await store.close();
      for (const file of files) file.close();
    },
  };
}
