// The catalog file as a source: a JSON catalog, or a snapshot file written by the importer (read in a
// fraction of a second at any size). Its directory is watched rather than the file, because editors and
// deploy tools replace a file by renaming a new one over it, which ends a watch on the old inode.
import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { readCatalogJson } from '../catalog/json/catalog-file.js';
import { isSnapshotFile, openSnapshotFile } from '../catalog/snapshot/snapshot-file.js';
import { type CatalogSource, snapshotOfCatalog } from './catalog-source.js';

/** Writes usually arrive as several events; one reload after they settle is enough. */
const SETTLE_MS = 150;

export function fileSource(path: string): CatalogSource {
  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  return {
    name: path,
    load: async () => (isSnapshotFile(path) ? openSnapshotFile(path) : snapshotOfCatalog(path, await readCatalogJson(path))),
    watch(changed) {
      watcher = watch(dirname(path), (_event, file) => {
        if (file !== null && file !== basename(path)) return;
        clearTimeout(timer);
        timer = setTimeout(changed, SETTLE_MS);
      });
      watcher.unref();
    },
    reachable: () => true,
    async close() {
      clearTimeout(timer);
      watcher?.close();
    },
  };
}
