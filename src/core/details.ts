// A record with its details (CveRecordDetails), one or a batch: the record's own fields, when it last
// changed, its highest severity, and what its CVE JSON 5 record says (read from the snapshot's text
// store when asked for).
import { type CveRecordDetails, type DetailsBatchResponse, NO_DETAILS, SEVERITIES } from '../contract/index.js';
import { detailsJson } from './details-json.js';
import type { RecordEntry } from './record-entry.js';
import { modifiedAt, recordAt } from './record-table.js';
import { highestSeverity, NO_SEVERITY } from './severity.js';
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

const NO_DETAILS_JSON = detailsJson(NO_DETAILS);

/** Each severity code's JSON value, made once. */
const SEVERITY_JSON = SEVERITIES.map((severity) => JSON.stringify(severity));

/**
 * The get-one details answer: the record's JSON (`recordJson`, which get-one keeps made), `modified` and
 * `severity` from the table's columns, then the stored details JSON spliced in unparsed. It is what
 * serializing recordDetails gives (the contract's field order), without the parse and the serialization
 * per request. A string, as get-one's bodies are: Node writes it with the header in one write (a Buffer
 * body went out as a second write, at a third of the throughput under wrk).
 */
export function detailsBody(snapshot: Snapshot, position: number, recordJson = JSON.stringify(recordAt(snapshot.table, position))): string {
  const modified = modifiedAt(snapshot.table, position);
  const code = snapshot.table.severity[position]!;
  const details = snapshot.detailsJson(position) ?? NO_DETAILS_JSON;
  // The record without its closing brace, the two fields, then the details without their opening one.
  return `${recordJson.slice(0, -1)},"modified":${modified === undefined ? 'null' : JSON.stringify(modified)},"severity":${
    code === NO_SEVERITY ? 'null' : SEVERITY_JSON[code]!
  },${details.slice(1)}`;
}
