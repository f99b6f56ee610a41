// Writes a snapshot file (core/snapshot-format.ts) of a catalog: its columns, its search index built
// here once, and its summaries and details in a text region read on demand. The server then starts on it in a
// fraction of a second whatever its size.
import { open } from 'node:fs/promises';
import type { CatalogFile } from '../../contract/index.js';
import { type CatalogDetails, objectDetails } from '../../core/catalog-details.js';
import { contentHashOf } from '../../core/content-hash.js';
import { recordTable } from '../../core/record-table.js';
import { textIndexSteps } from '../../core/search/text-index.js';
import { inListingOrder } from '../../core/snapshot.js';
import { encodeSnapshot, type SnapshotHeader } from '../../core/snapshot-format.js';
import { layOutBytes, layOutTexts } from '../../core/text-store.js';
import { inChunks } from '../text-chunks.js';

/**
 * Writes the snapshot of a catalog; returns the bytes written. `details` are the records' (by their index
 * in catalog.records), read twice: measured for the layout, then each text read again when it is written,
 * so that no more than one is held at a time.
 */
export async function writeSnapshotFile(
  path: string,
  catalog: CatalogFile,
  details: CatalogDetails = objectDetails(catalog.records),
  checkpoint?: SnapshotHeader['store'],
): Promise<number> {
  // Each position's index in catalog.records, which the details are read by.
  const indexOf = inListingOrder(catalog.records.map((record, index) => ({ id: record.id, index }))).map((entry) => entry.index);
  const records = indexOf.map((index) => catalog.records[index]!);
  const table = recordTable(records.map((record, position) => ({ ...record, filters: details.filters(indexOf[position]!) })));
  const summaries = layOutTexts(records.map((record) => record.summary));
  const { column: detailsColumn, end: textLength } = layOutBytes(
    indexOf.map((index) => details.byteLength(index)),
    summaries.end,
  );
  const steps = textIndexSteps(table.size, (position) => ({
    project: table.projectNames[table.projectOf[position]!]!,
    summary: records[position]!.summary ?? '',
  }));
  let step = steps.next();
  while (!step.done) step = steps.next();
  const hash = contentHashOf(catalog.lastVerified, records, (position) => details.text(indexOf[position]!));
  const head = encodeSnapshot(
    {
      version: hash.version(catalog.removed),
      lastVerified: catalog.lastVerified,
      ...(checkpoint ? { store: checkpoint } : {}),
    },
    {
      table,
      aliases: new Map((catalog.projects ?? []).map((project) => [project.name, project.aliases])),
      textIndex: step.value,
      summaries: summaries.column,
      details: detailsColumn,
      removed: catalog.removed ?? [],
      hashes: hash.hashes(),
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
    for (const chunk of inChunks(texts(records, indexOf, details))) await file.write(chunk);
    await file.sync();
    return headBytes + textLength;
  } finally {
    await file.close();
  }
}

/** The text region's content: the summaries in record order, then the details. */
function* texts(records: CatalogFile['records'], indexOf: readonly number[], details: CatalogDetails): Generator<string, void, undefined> {
  for (const record of records) if (record.summary !== undefined) yield record.summary;
  for (const index of indexOf) {
    const text = details.text(index);
    if (text !== undefined) yield text;
  }
}
