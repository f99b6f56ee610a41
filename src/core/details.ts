// A record with its details (CveRecordDetails), one or a batch: the record's own fields, when it last
// changed, its highest severity, and what its CVE JSON 5 record says (read from the snapshot's text
// store when asked for).
import { type CveRecordDetails, type DetailsBatchResponse, NO_DETAILS } from '../contract/index.js';
import type { RecordEntry } from './record-entry.js';
import { highestSeverity } from './severity.js';
import type { Snapshot } from './snapshot.js';

export function recordDetails(entry: RecordEntry): CveRecordDetails {
  const details = entry.details ?? NO_DETAILS;
  return { ...entry.record, modified: entry.modified ?? null, severity: highestSeverity(details.metrics), ...details };
}

/** Records found and ids missing, both in the order asked, like the plain batch. */
export function batchGetDetails(snapshot: Snapshot, ids: readonly string[]): DetailsBatchResponse {
  const records: CveRecordDetails[] = [];
  const missing: string[] = [];
  for (const id of ids) {
    const entry = snapshot.get(id);
    if (entry !== undefined) records.push(recordDetails(entry));
    else missing.push(id);
  }
  return { records, missing };
}
