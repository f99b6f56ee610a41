import type { ServiceConfig } from '../config.js';
import type { CursorCodec } from '../core/cursor.js';
import type { SnapshotStore } from '../core/snapshot-store.js';

/** What every surface needs: settings, the snapshot being served and the cursor codec. */
export interface ServiceContext {
  readonly config: ServiceConfig;
  readonly store: SnapshotStore;
  readonly cursors: CursorCodec;
}
