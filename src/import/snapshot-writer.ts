// Writes a snapshot file (core/snapshot-format.ts) of a catalog: its columns, its search index built
// here once, and its summaries and details in a text region read on demand. The server then starts on it in a
// fraction of a second whatever its size.
import { open } from 'node:fs/promises';
import type { CatalogFile, CatalogRecord } from '../contract/index.js';
import { detailsJson } from '../core/details-json.js';
import { recordTable, tableRecord } from '../core/record-table.js';
import { textIndexSteps } from '../core/search/text-index.js';
import { contentVersion, inListingOrder } from '../core/snapshot.js';
import { encodeSnapshot } from '../core/snapshot-format.js';
import { layOutBytes, layOutTexts } from '../core/text-store.js';
import { inChunks } from './text-chunks.js';

/** Writes the snapshot of a catalog; returns the bytes written. */
export async function writeSnapshotFile(path: string, catalog: CatalogFile): Promise<number> {
  const records = inListingOrder(catalog.records);
  const table = recordTable(records.map(tableRecord));
  const summaries = layOutTexts(records.map((record) => record.summary));
  // Each record's details as JSON in the contract's order (served as stored), made twice: measured here,
  // written below. Held all at once, the corpus's 340,000 texts would be about 650 MB beside their objects.
  const { column: detailsColumn, end: textLength } = layOutBytes(
    records.map((record) => (record.details === undefined ? -1 : Buffer.byteLength(detailsJson(record.details)))),
    summaries.end,
  );
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
      summaries: summaries.column,
      details: detailsColumn,
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
    // The text region, encoded a megabyte at a time rather than as one buffer per text.
    for (const text of inChunks(texts(records))) await file.write(Buffer.from(text));
    await file.sync();
    return headBytes + textLength;
  } finally {
    await file.close();
  }
}

/** The text region's content: the summaries in record order, then the details. */
function* texts(records: readonly CatalogRecord[]): Generator<string, void, undefined> {
  for (const record of records) if (record.summary !== undefined) yield record.summary;
  for (const record of records) if (record.details !== undefined) yield detailsJson(record.details);
}
