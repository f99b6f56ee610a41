import type { BatchResponse, CveRecord } from '../contract/index.js';
import { recordAt } from './record-table.js';
import type { Snapshot } from './snapshot.js';

/** Records found and ids missing, both in the order asked. Pure: the same ids give the same answer. */
export function batchGet(snapshot: Snapshot, ids: readonly string[]): BatchResponse {
  const records: CveRecord[] = [];
  const missing: string[] = [];
  for (const id of ids) {
    const position = snapshot.positionOf(id);
    if (position !== undefined) records.push(recordAt(snapshot.table, position));
    else missing.push(id);
  }
  return { records, missing };
}
