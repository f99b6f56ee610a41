import type { ServiceConfig } from '../../config.js';
import type { CursorCodec } from '../../core/cursor.js';
import type { ServiceDescription, SourceStatus } from '../../core/service-info.js';
import type { SnapshotStore } from '../../core/snapshot-store.js';

/** What a server is built from: settings, the snapshot being served and the cursor codec. */
export interface ServiceContext {
  readonly config: ServiceConfig;
  readonly store: SnapshotStore;
  readonly cursors: CursorCodec;
  /** Whether the records' source can be reached, which health reports; none: always (a fixed catalog). */
  readonly source?: SourceStatus;
}

/** What every surface is given: the service context and how the service describes itself. */
export interface SurfaceContext extends ServiceContext {
  readonly description: ServiceDescription;
}
