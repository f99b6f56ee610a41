// Where the served catalog comes from and how a change becomes a new snapshot. Three sources exist: the
// catalog file (a JSON catalog or a snapshot file; watched, and reloaded whole on SIGHUP), and the store of
// record on SQLite (polled) or PostgreSQL (LISTEN/NOTIFY), whose changes are applied to the snapshot being
// served (store-changes.ts). Either way a change is all or nothing: a valid snapshot is swapped in with one
// assignment, an invalid one is refused with a log line while the old snapshot keeps serving.

import { findCatalogProblems } from '../catalog/catalog-validation.js';
import { CatalogError } from '../catalog/json/catalog-file.js';
import type { CatalogFile } from '../contract/index.js';
import { createSnapshot, type Snapshot } from '../core/snapshot.js';
import type { SnapshotStore } from '../core/snapshot-store.js';

export interface CatalogSource {
  /** Names the source in logs and errors. */
  readonly name: string;
  /**
   * The catalog as a snapshot; a catalog read whole is checked once, by snapshotOfCatalog; a store checks
   * each row as it reads it. Given the snapshot being served, a store applies to it what changed since.
   */
  load(current?: Snapshot): Promise<Snapshot>;
  /** Calls `changed` whenever the catalog may have changed, until closed. */
  watch(changed: () => void): void;
  /**
   * False while the source cannot be reached and its changes are not heard (PostgreSQL lost): the last
   * snapshot is served meanwhile, and health says so. A file is always reachable.
   */
  reachable(): boolean;
  close(): Promise<void>;
}

export interface ReloadLogger {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** Checks a catalog read whole and makes its snapshot: any problem is a CatalogError naming each location. */
export function snapshotOfCatalog(name: string, catalog: unknown): Snapshot {
  const problems = findCatalogProblems(catalog);
  if (problems.length > 0) throw new CatalogError(name, problems);
  return createSnapshot(catalog as CatalogFile);
}

export function loadSnapshot(source: CatalogSource): Promise<Snapshot> {
  return source.load();
}

/**
 * Keeps `store` on the source's latest valid catalog. Reloads never overlap; changes during one queue one
 * more. `prepare` runs on a new snapshot before it is served (building its search index), so the first
 * requests after a reload do not pay for it; it is given the snapshot served until then.
 */
export function keepCurrent(
  source: CatalogSource,
  store: SnapshotStore,
  log: ReloadLogger,
  prepare: (snapshot: Snapshot, served: Snapshot) => Promise<unknown> = async () => {},
): { reload(reason: string): Promise<void> } {
  let running: Promise<void> | undefined;
  let again: string | undefined;

  const reloadOnce = async (reason: string): Promise<void> => {
    const started = Date.now();
    try {
      const previous = store.current;
      const next = await source.load(previous);
      if (next.version === previous.version) {
        if (reason === 'SIGHUP') log.info({ source: source.name, datasetVersion: next.version }, 'catalog unchanged');
        return;
      }
      await prepare(next, previous);
      store.replace(next);
      log.info(
        {
          source: source.name,
          reason,
          records: next.size,
          datasetVersion: next.version,
          previousVersion: previous.version,
          ms: Date.now() - started,
        },
        `catalog reloaded: ${next.size} records, version ${next.version}`,
      );
    } catch (error) {
      log.error(
        { source: source.name, reason, err: { message: (error as Error).message }, servingVersion: store.current.version },
        `catalog reload refused, still serving version ${store.current.version}`,
      );
    }
  };

  const reload = (reason: string): Promise<void> => {
    if (running) {
      again = reason;
      return running;
    }
    running = reloadOnce(reason).finally(() => {
      running = undefined;
      const next = again;
      again = undefined;
      if (next !== undefined) void reload(next);
    });
    return running;
  };

  source.watch(() => void reload('changed'));
  return { reload };
}
