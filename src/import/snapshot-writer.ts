// Writes a snapshot file (core/snapshot-format.ts) of a catalog: its columns, its search index built
// here once, and its summaries in a text region read on demand. The server then starts on it in a
// fraction of a second whatever its size.
import { open } from 'node:fs/promises';
import type { CatalogFile, CatalogRecord } from '../contract/index.js';
import { recordTable } from '../core/record-table.js';
import { textIndexSteps } from '../core/search/text-index.js';
import { contentVersion, inListingOrder } from '../core/snapshot.js';
import { encodeSnapshot } from '../core/snapshot-format.js';
import { inChunks } from './text-chunks.js';

/** Writes the snapshot of a catalog; returns the bytes written. */
export async function writeSnapshotFile(path: string, catalog: CatalogFile): Promise<number> {
  const records = inListingOrder(catalog.records);
  const table = recordTable(records);
  const summaryOffset = new Float64Array(records.length);
  const summaryLength = new Uint32Array(records.length);
  let textLength = 0;
  records.forEach((record, position) => {
    const length = record.summary === undefined ? 0 : Buffer.byteLength(record.summary);
    summaryOffset[position] = record.summary === undefined ? -1 : textLength;
    summaryLength[position] = length;
    textLength += length;
  });
  const steps = textIndexSteps(table.size, (position) => ({
    project: table.projectNames[table.projectOf[position]!]!,
    summary: records[position]!.summary ?? '',
  }));
  let step = steps.next();
  while (!step.done) step = steps.next();
  const head = encodeSnapshot(
    { version: contentVersion(catalog.lastVerified, records, catalog.removed), lastVerified: catalog.lastVerified },
    {
      table,
      aliases: new Map((catalog.projects ?? []).map((project) => [project.name, project.aliases])),
      textIndex: step.value,
      summaryOffset,
      summaryLength,
      removed: catalog.removed ?? [],
    },
    textLength,
  );
  const file = await open(path, 'w');
  try {
    let headBytes = 0;
    for (const piece of head) {
      await file.write(piece);
      headBytes += piece.length;
    }
    // The text region, encoded a megabyte at a time rather than as one buffer per summary.
    for (const text of inChunks(summaries(records))) await file.write(Buffer.from(text));
    await file.sync();
    return headBytes + textLength;
  } finally {
    await file.close();
  }
}

/** The summaries in record order: the text region's content. */
function* summaries(records: readonly CatalogRecord[]): Generator<string, void, undefined> {
  for (const record of records) if (record.summary !== undefined) yield record.summary;
}
