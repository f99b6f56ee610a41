// The store of record in an SQLite file as a source: loaded whole once, then polled for its sequence (one
// row, microseconds) a few times a second; when a step has committed, the rows past the served snapshot's
// sequence are applied to it (store-changes.ts). The sync writing the file may be this process
// (`serve --sync`) or another one (`sync --follow` beside several `serve`s on one machine).
import { openSqliteStore } from '../catalog/sqlite/sqlite-store.js';
import type { TextFile } from '../core/text-file.js';
import type { CatalogSource } from './catalog-source.js';
import { nextSnapshot } from './store-changes.js';

/** How often the store's sequence is read: a step is served within about this long of its commit. */
export const POLL_MS = 200;

export function sqliteSource(path: string): CatalogSource {
  const store = openSqliteStore(path);
  const files = new Set<TextFile>();
  let poll: NodeJS.Timeout | undefined;
  /** The sequence last seen by a poll (or a load): a reload is asked for once per sequence, not per poll. */
  let seen: number | undefined;
  return {
    name: path,
    load: async (current) => {
      const { snapshot } = await nextSnapshot(store, current, files);
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
