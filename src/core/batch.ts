import type { BatchResponse, CveRecord } from '../contract/index.js';
import type { Snapshot } from './snapshot.js';

/** Records found and ids missing, both in the order asked. Pure: the same ids give the same answer. */
export function batchGet(snapshot: Snapshot, ids: readonly string[]): BatchResponse {
  const records: CveRecord[] = [];
  const missing: string[] = [];
  for (const id of ids) {
    const entry = snapshot.get(id);
    if (entry) records.push(entry.record);
    else missing.push(id);
  }
  return { records, missing };
}
