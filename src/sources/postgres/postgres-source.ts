// PostgreSQL as a source: the table is loaded whole (its texts into a temporary file, table-snapshot.ts),
// and one listening connection hears every change (LISTEN/NOTIFY). If that connection drops, the service
// keeps serving its last snapshot and reconnects with backoff; after a reconnect it reloads, since
// notifications sent meanwhile are lost.
import type pg from 'pg';
import { connect, withClient } from '../../catalog/postgres/database.js';
import { CHANGE_CHANNEL } from '../../catalog/postgres/schema.js';
import { loadTableSnapshot } from '../../catalog/postgres/table-snapshot.js';
import type { Snapshot } from '../../core/snapshot.js';
import type { TextFile } from '../../core/text-file.js';
import type { CatalogSource } from '../catalog-source.js';

export interface SourceLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

const MAX_BACKOFF_MS = 10_000;

export function postgresSource(url: string, log: SourceLogger): CatalogSource {
  let listener: pg.Client | undefined;
  let closed = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  // The temporary files of the snapshots loaded and not yet collected: closed when the source closes, by
  // then no request reads them.
  const files = new Set<TextFile>();
  let latest: WeakRef<Snapshot> | undefined;

  const listen = async (changed: () => void): Promise<void> => {
    const client = connect(url);
    const lost = (error?: Error) => {
      if (closed || listener !== client) return;
      listener = undefined;
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
    if (failures > 0) {
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
    load: async () => {
      const { snapshot, file } = await withClient(url, (client) => loadTableSnapshot(client, files));
      // A notification that changed nothing gives back the snapshot being served, and the new copy of its
      // texts is freed at once rather than when the collector gets to it.
      const previous = latest?.deref();
      if (previous?.version === snapshot.version) {
        file.close();
        return previous;
      }
      latest = new WeakRef(snapshot);
      return snapshot;
    },
    watch: (changed) => void listen(changed),
    async close() {
      closed = true;
      clearTimeout(retry);
      await listener?.end().catch(() => {});
      for (const file of files) file.close();
    },
  };
}
