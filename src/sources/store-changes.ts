// The next snapshot from the store of record: the rows written after the sequence the snapshot being
// served holds, applied to it (core/snapshot-delta.ts), never the corpus read again. A whole load only
// where there is nothing to apply to (the first load, a snapshot from elsewhere such as a fallback file)
// or the change is a large part of the catalog (a first baseline), where a load costs less than a patch.

import type { CatalogProblem } from '../catalog/catalog-validation.js';
import { CatalogError } from '../catalog/json/catalog-file.js';
import { openCheckpoint } from '../catalog/snapshot/snapshot-file.js';
import { loadStoreSnapshot, rowFacts } from '../catalog/store/store-snapshot.js';
import type { RecordStore, StoreChanges } from '../core/record-store.js';
import type { Snapshot } from '../core/snapshot.js';
import { applyRows, type ChangedRow, type RowChange } from '../core/snapshot-delta.js';
import type { TextFile } from '../core/text-file.js';

/** Past this share of the catalog (and this many rows), a change is loaded whole rather than applied. */
const WHOLE_LOAD_SHARE = 0.25;
const WHOLE_LOAD_MIN_ROWS = 50_000;

/**
 * The first snapshot: from a checkpoint of this store (a snapshot file naming the store and the sequence
 * it holds) plus the rows written after it, in a fraction of the time a whole load takes; else, or when
 * the checkpoint cannot be read (`warn` says why), the store loaded whole.
 */
export async function startingSnapshot(
  store: RecordStore,
  checkpoint: string | undefined,
  files: Set<TextFile>,
  warn: (message: string) => void,
): Promise<{ snapshot: Snapshot; file?: TextFile }> {
  if (checkpoint !== undefined) {
    try {
      const from = openCheckpoint(checkpoint, (await store.state()).storeId);
      if (from) return await nextSnapshot(store, from, files);
      warn(`${checkpoint} is not a checkpoint of ${store.name}: loading the store whole`);
    } catch (error) {
      warn(`checkpoint ${checkpoint} not used (${(error as Error).message}): loading the store whole`);
    }
  }
  return loadStoreSnapshot(store, files);
}

/** The next snapshot, and the file of its texts when it was loaded whole (its caller may free it at once). */
export async function nextSnapshot(
  store: RecordStore,
  previous: Snapshot | undefined,
  files?: Set<TextFile>,
): Promise<{ snapshot: Snapshot; file?: TextFile }> {
  if (previous !== undefined && previous.sequence > 0) {
    const limit = Math.max(WHOLE_LOAD_MIN_ROWS, Math.floor(previous.size * WHOLE_LOAD_SHARE));
    const changes = await store.changesSince(previous.sequence, limit);
    if (changes === undefined) return { snapshot: previous };
    if (changes !== 'too-many') return { snapshot: applyRows(previous, rowChange(store.name, changes), store.textsOf) };
  }
  return loadStoreSnapshot(store, files);
}

/**
 * The change as rows with their facts: as their writer kept them, or worked out now with each row checked
 * as a whole load checks it (one invalid row refuses the change whole).
 */
function rowChange(name: string, changes: StoreChanges): RowChange {
  const problems: CatalogProblem[] = [];
  const upserted: ChangedRow[] = [];
  changes.upserted.forEach((row, index) => {
    const facts = rowFacts(row, `/records/${index}`, problems);
    if (facts === undefined) return;
    const { summary, ...fields } = row.record;
    upserted.push({ record: { ...fields, filters: facts.filters }, hash: facts.hash, texts: { summary, details: row.details } });
  });
  if (problems.length > 0) throw new CatalogError(name, problems);
  return { sequence: changes.sequence, lastVerified: changes.lastVerified, upserted, removed: changes.removed, projects: changes.projects };
}
