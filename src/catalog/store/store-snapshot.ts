// The store of record as a snapshot. The store is read a batch of rows at a time in one transaction. Each
// row's filter columns and content hash are its facts, which its writer worked out when it checked the row
// (row-facts.ts): no details are parsed, checked or hashed. A row without facts (an older store, or written
// by another program) is checked and its facts worked out here; an invalid row refuses the whole load.
// Where the store reads a row in microseconds (SQLite), the rows are read narrow (no texts) and a request
// reads a record's texts from its row (RecordStore.textsOf); elsewhere (PostgreSQL) the texts are written
// as they are read to a private temporary file (core/text-file.ts) that requests read them from, as they
// read a snapshot file. Either way the served snapshot holds no texts. The snapshot names the store's
// sequence, so the server then applies the rows written after it.
import type { CatalogProject } from '../../contract/index.js';
import { sumHashes, versionOf } from '../../core/content-hash.js';
import type { RecordStore, RowFacts, StoredRecord } from '../../core/record-store.js';
import { recordTable, type TableRecord } from '../../core/record-table.js';
import { assembleSnapshot, inListingOrder, type Snapshot } from '../../core/snapshot.js';
import { TextFile } from '../../core/text-file.js';
import { layOutTexts, type TextColumn, type TextStore } from '../../core/text-store.js';
import type { CatalogProblem } from '../catalog-validation.js';
import { CatalogError } from '../json/catalog-file.js';
import { factsOrProblems } from './row-facts.js';

/** A record read, its hash, and where its texts are in the file when there is one (offset -1: it has none). */
interface ReadRecord extends TableRecord {
  readonly hash: bigint;
  placed?: { readonly summaryAt: number; readonly summaryBytes: number; readonly detailsAt: number; readonly detailsBytes: number };
}

/** The store's snapshot, and the file its texts are read from, if any (closed when the snapshot is collected). */
export async function loadStoreSnapshot(store: RecordStore, files?: Set<TextFile>): Promise<{ snapshot: Snapshot; file?: TextFile }> {
  const file = store.textsOf === undefined ? TextFile.temporary(files) : undefined;
  try {
    const { state, records, removed, projects, problems } = await store.read(
      async (contents) => ({
        ...(await readRecords(contents.records, file)),
        state: contents.state,
        removed: contents.removed,
        projects: contents.projects,
      }),
      { narrow: file === undefined },
    );
    if (problems.length > 0) throw new CatalogError(store.name, problems);
    const sorted = inListingOrder(records);
    const hashes = BigUint64Array.from(sorted, (r) => r.hash);
    const sum = sumHashes(0n, hashes);
    const ids = sorted.map((r) => r.id);
    let texts: TextStore;
    if (file === undefined) texts = store.textsOf!(ids, (position) => hashes[position]!);
    else {
      const summaries = {
        offset: Float64Array.from(sorted, (r) => r.placed!.summaryAt),
        length: Uint32Array.from(sorted, (r) => r.placed!.summaryBytes),
      };
      const details = {
        offset: Float64Array.from(sorted, (r) => r.placed!.detailsAt),
        length: Uint32Array.from(sorted, (r) => r.placed!.detailsBytes),
      };
      texts = file.texts(0, summaries, details);
      // The file stays open while any snapshot reads these texts: this one, or one a change made from it.
      file.closeWith(texts);
    }
    const snapshot = assembleSnapshot({
      version: versionOf(state.lastVerified, sorted.length, sum, removed),
      hashes: { column: hashes, sum },
      lastVerified: state.lastVerified,
      sequence: state.sequence,
      table: recordTable(sorted),
      texts,
      aliases: usedAliases(projects, sorted),
      removed,
    });
    return { snapshot, ...(file === undefined ? {} : { file }) };
  } catch (error) {
    file?.close();
    throw error;
  }
}

/** The spellings of the projects records use (a project whose records all left keeps its row, unused). */
export function usedAliases(projects: readonly CatalogProject[], records: readonly { readonly project: string }[]): Map<string, string[]> {
  const used = new Set(records.map((record) => record.project));
  return new Map(projects.filter((project) => used.has(project.name) && project.aliases.length > 0).map((p) => [p.name, p.aliases]));
}

/** A row's facts: as its writer kept them, or worked out (and the row checked) now. */
export function rowFacts(row: StoredRecord, pointer: string, problems: CatalogProblem[]): RowFacts | undefined {
  return row.facts ?? factsOrProblems(row, pointer, problems);
}

async function readRecords(
  batches: AsyncIterable<StoredRecord[]>,
  file: TextFile | undefined,
): Promise<{ records: ReadRecord[]; problems: CatalogProblem[] }> {
  const records: ReadRecord[] = [];
  const problems: CatalogProblem[] = [];
  // Projects and statuses repeat across rows: every record of the load keeps one shared copy of each.
  const names = new Map<string, string>();
  let end = 0;
  let index = 0;
  for await (const rows of batches) {
    const texts: (string | undefined)[] = [];
    const read: ReadRecord[] = [];
    // Each row is let go of as soon as it is taken: the collections its parsing causes then find the rows
    // done with already garbage rather than moving them to the old generation.
    for (let row = rows.shift(); row !== undefined; row = rows.shift()) {
      const facts = rowFacts(row, `/records/${index++}`, problems);
      if (facts === undefined) continue;
      const { summary, ...fields } = row.record;
      // What stays in memory of the row: its own short fields, its filter columns and hash, not its texts.
      read.push({
        ...fields,
        project: kept(names, fields.project),
        status: kept(names, fields.status) as typeof fields.status,
        filters: facts.filters,
        hash: facts.hash,
      });
      if (file !== undefined) texts.push(summary, row.details);
    }
    if (file !== undefined) {
      const laidOut = layOutTexts(texts, end);
      writeAll(file, texts, laidOut.column, end, laidOut.end);
      const { offset, length } = laidOut.column;
      read.forEach((record, i) => {
        record.placed = {
          summaryAt: offset[2 * i]!,
          summaryBytes: length[2 * i]!,
          detailsAt: offset[2 * i + 1]!,
          detailsBytes: length[2 * i + 1]!,
        };
      });
      end = laidOut.end;
    }
    for (const record of read) records.push(record);
  }
  return { records, problems };
}

/** The string already kept equal to `value`, or else `value`, kept from now on. */
function kept(map: Map<string, string>, value: string): string {
  const known = map.get(value);
  if (known !== undefined) return known;
  map.set(value, value);
  return value;
}

/** Writes one batch's texts, laid out from `start` to `end`, at their place in the file. */
function writeAll(file: TextFile, texts: readonly (string | undefined)[], column: TextColumn, start: number, end: number): void {
  const buffer = Buffer.allocUnsafe(end - start);
  texts.forEach((text, i) => {
    if (text !== undefined) buffer.write(text, column.offset[i]! - start, 'utf8');
  });
  file.writeAt(buffer, buffer.length, start);
}
