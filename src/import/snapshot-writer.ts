// Writes a snapshot file (core/snapshot-format.ts) of a catalog: its columns, its search index built
// here once, and its summaries in a text region read on demand. The server then starts on it in a
// fraction of a second whatever its size.
import { open } from 'node:fs/promises';
import type { CatalogFile } from '../contract/index.js';
import { recordTable } from '../core/record-table.js';
import { textIndexSteps } from '../core/search/text-index.js';
import { contentVersion, inListingOrder } from '../core/snapshot.js';
import { encodeSnapshot } from '../core/snapshot-format.js';

/** Writes the snapshot of a catalog; returns the bytes written. */
export async function writeSnapshotFile(path: string, catalog: CatalogFile): Promise<number> {
  const records = inListingOrder(catalog.records);
  const table = recordTable(records);
  const summaries = records.map((record) => (record.summary === undefined ? undefined : Buffer.from(record.summary)));
  const summaryOffset = new Float64Array(records.length);
  const summaryLength = new Uint32Array(records.length);
  let textLength = 0;
  summaries.forEach((bytes, position) => {
    summaryOffset[position] = bytes === undefined ? -1 : textLength;
    summaryLength[position] = bytes?.length ?? 0;
    textLength += bytes?.length ?? 0;
  });
  const steps = textIndexSteps(table.size, (position) => ({
    project: table.projectNames[table.projectOf[position]!]!,
    summary: records[position]!.summary ?? '',
  }));
  let step = steps.next();
  while (!step.done) step = steps.next();
  const head = encodeSnapshot(
    { version: contentVersion(catalog.lastVerified, records), lastVerified: catalog.lastVerified },
    {
      table,
      aliases: new Map((catalog.projects ?? []).map((project) => [project.name, project.aliases])),
      textIndex: step.value,
      summaryOffset,
      summaryLength,
    },
    textLength,
  );
  const file = await open(path, 'w');
  try {
    await file.write(head);
    const chunk: Buffer[] = [];
    let chunkBytes = 0;
    for (const bytes of summaries) {
      if (bytes === undefined) continue;
      chunk.push(bytes);
      chunkBytes += bytes.length;
      if (chunkBytes >= 1 << 20) {
        await file.write(Buffer.concat(chunk));
        chunk.length = 0;
        chunkBytes = 0;
      }
    }
    if (chunk.length > 0) await file.write(Buffer.concat(chunk));
    await file.sync();
  } finally {
    await file.close();
  }
  return head.length + textLength;
}
