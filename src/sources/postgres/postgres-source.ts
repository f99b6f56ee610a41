// PostgreSQL as a source: the store is loaded whole once (its texts into a temporary file,
// store-snapshot.ts), and one listening connection hears every step's commit (LISTEN/NOTIFY), after which
// the rows past the served snapshot's sequence are applied to it (store-changes.ts). If that connection
// drops, the service keeps serving its last snapshot and reconnects with backoff; after a reconnect it
// catches up from its own sequence, since notifications sent meanwhile are lost. A link can also die silently (a partition drops packets, nothing
// resets the connection): a listener that hears nothing would never know, so it is asked a trivial
// statement every second and counts as lost when the answer takes more than a few seconds. While lost,
// and after a reconnect until the load that catches up has ended, the source is not reachable() and the
// replica's health says so: a proxy sends it clients only once it serves what the others serve.
import type pg from 'pg';
import { connect } from '../../catalog/postgres/database.js';
import { postgresStore } from '../../catalog/postgres/postgres-store.js';
import { CHANGE_CHANNEL } from '../../catalog/store/schema.js';
import type { Snapshot } from '../../core/snapshot.js';
import type { TextFile } from '../../core/text-file.js';
import type { CatalogSource } from '../catalog-source.js';
import { nextSnapshot, startingSnapshot } from '../store-changes.js';

export interface SourceLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

const MAX_BACKOFF_MS = 10_000;
/** How often the listening connection is asked whether it is alive, and how long it has to answer. */
const HEARTBEAT_MS = 1000;
const HEARTBEAT_TIMEOUT_MS = 2500;
/** A load's statements (FETCHes of 1000 rows) are short: one that hangs this long is a dead link. */
const LOAD_QUERY_TIMEOUT_MS = 15_000;

/** `checkpoint`: a snapshot file of this store to start from (`serve --checkpoint`). */
export function postgresSource(url: string, log: SourceLogger, checkpoint?: string): CatalogSource {
  let listener: pg.Client | undefined;
  /** True while the listener is connected and listening. */
  let listening = false;
  let heartbeat: NodeJS.Timeout | undefined;
  let closed = false;
  let failures = 0;
  /** Reconnects so far, and how many of them a finished load has caught up with. */
  let reconnects = 0;
  let caughtUpWith = 0;
  let retry: NodeJS.Timeout | undefined;
  // The temporary files of the snapshots loaded and not yet collected: closed when the source closes, by
  // then no request reads them.
  const files = new Set<TextFile>();
  let latest: WeakRef<Snapshot> | undefined;
  const store = postgresStore(url, LOAD_QUERY_TIMEOUT_MS);

  const listen = async (changed: () => void): Promise<void> => {
    const client = connect(url);
    const lost = (error?: Error) => {
      if (closed || listener !== client) return;
      listener = undefined;
      listening = false;
      clearInterval(heartbeat);
      client.end().catch(() => {});
      reconnectLater(changed, error?.message ?? 'connection ended');
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', () => changed());
    listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (error) {
      lost(error as Error);
      return;
    }
    listening = true;
    heartbeat = setInterval(() => {
      const silent = setTimeout(() => lost(new Error(`no answer to a heartbeat within ${HEARTBEAT_TIMEOUT_MS} ms`)), HEARTBEAT_TIMEOUT_MS);
      silent.unref();
      client.query('SELECT 1').then(
        () => clearTimeout(silent),
        (error: Error) => {
          clearTimeout(silent);
          lost(error);
        },
      );
    }, HEARTBEAT_MS);
    heartbeat.unref();
    if (failures > 0) {
      reconnects++;
      log.info({ attempts: failures }, 'PostgreSQL is back: listening for changes again');
      changed();
    }
    failures = 0;
  };

  const reconnectLater = (changed: () => void, reason: string) => {
    if (failures === 0) log.warn({ reason }, 'PostgreSQL connection lost: serving the last snapshot, reconnecting');
    const delay = Math.min(250 * 2 ** failures, MAX_BACKOFF_MS);
    failures++;
    retry = setTimeout(() => void listen(changed), delay);
    retry.unref();
  };

  return {
    name: 'PostgreSQL',
    load: async (current) => {
      // A load begun after a reconnect reads every row written while the link was down.
      const asOf = reconnects;
      const { snapshot, file } =
        current === undefined
          ? await startingSnapshot(store, checkpoint, files, (message) => log.warn({}, message))
          : await nextSnapshot(store, current, files);
      // A whole load of the content being served gives back the snapshot loaded before, and the new copy of
      // its texts is freed at once rather than when the collector gets to it.
      caughtUpWith = asOf;
      const previous = latest?.deref();
      if (file !== undefined && previous?.version === snapshot.version && previous.sequence === snapshot.sequence) {
        file.close();
        return previous;
      }
      latest = new WeakRef(snapshot);
      return snapshot;
    },
    watch: (changed) => void listen(changed),
    reachable: () => listening && caughtUpWith === reconnects,
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      await listener?.end().catch(() => {});
      for (const file of files) file.close();
    },
  };
}
