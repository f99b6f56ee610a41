// The store of record as a snapshot, with its summaries and details kept out of the process. The store is
// read a batch of rows at a time in one transaction; each row is checked, its filter columns are taken
// from its details, and its texts are written to a private temporary file (core/text-file.ts) that
// requests read them from, as they read a snapshot file. A load holds one batch of texts at a time,
// whatever the size of the details, and the served snapshot holds none. The snapshot names the store's
// sequence, so the server then applies the rows written after it.
import type { CatalogProject, RecordDetails } from '../../contract/index.js';
import type { RecordStore, StoredRecord } from '../../core/record-store.js';
import { type DetailFilters, detailFilters, recordTable, type TableRecord } from '../../core/record-table.js';
import { assembleSnapshot, ContentHash, inListingOrder, type Snapshot } from '../../core/snapshot.js';
import { TextFile } from '../../core/text-file.js';
import { layOutTexts, type TextColumn } from '../../core/text-store.js';
import { type CatalogProblem, recordProblems } from '../catalog-validation.js';
import { CatalogError } from '../json/catalog-file.js';

/** Records hashed between two turns of the event loop, so a reload does not hold up requests. */
const HASH_STEP = 2000;

/** A record read, and where its texts are in the file (offset -1: it has none). */
interface ReadRecord extends TableRecord {
  readonly summaryAt: number;
  readonly summaryBytes: number;
  readonly detailsAt: number;
  readonly detailsBytes: number;
}

/** The store's snapshot, and the file its texts are read from (closed when the snapshot is collected). */
export async function loadStoreSnapshot(store: RecordStore, files?: Set<TextFile>): Promise<{ snapshot: Snapshot; file: TextFile }> {
  const file = TextFile.temporary(files);
  try {
    const { state, records, removed, projects, problems } = await store.read(async (contents) => ({
      ...(await readRecords(contents.records, file)),
      state: contents.state,
      removed: contents.removed,
      projects: contents.projects,
    }));
    if (problems.length > 0) throw new CatalogError(store.name, problems);
    const sorted = inListingOrder(records);
    const summaries = { offset: Float64Array.from(sorted, (r) => r.summaryAt), length: Uint32Array.from(sorted, (r) => r.summaryBytes) };
    const details = { offset: Float64Array.from(sorted, (r) => r.detailsAt), length: Uint32Array.from(sorted, (r) => r.detailsBytes) };
    const texts = file.texts(0, summaries, details);
    // The version every source gives the same records: their fields and details in listing order, the
    // details as written (detailsJson, which the details answer sends as stored), read back from the file.
    const hash = new ContentHash(state.lastVerified);
    for (let position = 0; position < sorted.length; position++) {
      if (position % HASH_STEP === HASH_STEP - 1) await new Promise((resolve) => setImmediate(resolve));
      hash.add({ ...sorted[position]!, summary: texts.summary(position) }, texts.details(position));
    }
    const snapshot = assembleSnapshot({
      version: hash.version(removed),
      hashes: { column: hash.hashes(), sum: hash.sum },
      lastVerified: state.lastVerified,
      sequence: state.sequence,
      table: recordTable(sorted),
      texts,
      aliases: usedAliases(projects, sorted),
      removed,
    });
    // The file stays open while any snapshot reads these texts: this one, or one a change made from it.
    file.closeWith(texts);
    return { snapshot, file };
  } catch (error) {
    file.close();
    throw error;
  }
}

/** The spellings of the projects records use (a project whose records all left keeps its row, unused). */
export function usedAliases(projects: readonly CatalogProject[], records: readonly { readonly project: string }[]): Map<string, string[]> {
  const used = new Set(records.map((record) => record.project));
  return new Map(projects.filter((project) => used.has(project.name) && project.aliases.length > 0).map((p) => [p.name, p.aliases]));
}

async function readRecords(
  batches: AsyncIterable<StoredRecord[]>,
  file: TextFile,
): Promise<{ records: ReadRecord[]; problems: CatalogProblem[] }> {
  const records: ReadRecord[] = [];
  const problems: CatalogProblem[] = [];
  // Projects, statuses and filter columns repeat across rows: every record of the load keeps one shared
  // copy of each rather than its own, which is a third of what the records being read hold.
  const names = new Map<string, string>();
  const filterSets = new Map<string, DetailFilters>();
  let end = 0;
  let index = 0;
  for await (const rows of batches) {
    const texts: (string | undefined)[] = [];
    const read: TableRecord[] = [];
    // Each row is let go of as soon as it is taken: the collections its parsing causes then find the rows
    // done with already garbage rather than moving them to the old generation.
    for (let row = rows.shift(); row !== undefined; row = rows.shift()) {
      const { record: r, details: json } = row;
      const own = {
        ...r,
        project: kept(names, r.project, r.project),
        status: kept(names, r.status, r.status) as typeof r.status,
      };
      const details = json === undefined ? undefined : (JSON.parse(json) as RecordDetails);
      // Every row is checked as a catalog file's record is: the tables' constraints cover ids, status,
      // project and url, but not what a url may link to, the dates' forms, or the details, and a table
      // may be written by more than this program. A row is parsed here anyway for its filter columns, so
      // checking it costs little; an invalid row refuses the whole load.
      const before = problems.length;
      recordProblems(details === undefined ? own : { ...own, details }, `/records/${index++}`, problems);
      if (problems.length > before) continue;
      const { summary, ...fields } = own;
      // What stays in memory of the row: its own short fields and its filter columns, not its texts.
      read.push({ ...fields, filters: keptFilters(filterSets, detailFilters(details)) });
      texts.push(summary, json);
    }
    const laidOut = layOutTexts(texts, end);
    writeAll(file, texts, laidOut.column, end, laidOut.end);
    read.forEach((record, i) => {
      const { offset, length } = laidOut.column;
      records.push({
        ...record,
        summaryAt: offset[2 * i]!,
        summaryBytes: length[2 * i]!,
        detailsAt: offset[2 * i + 1]!,
        detailsBytes: length[2 * i + 1]!,
      });
    });
    end = laidOut.end;
  }
  return { records, problems };
}

/** The value already kept under `key`, or else `value`, kept from now on. */
function kept<T>(map: Map<string, T>, key: string, value: T): T {
  const known = map.get(key);
  if (known !== undefined) return known;
  map.set(key, value);
  return value;
}

function keptFilters(map: Map<string, DetailFilters>, filters: DetailFilters): DetailFilters {
  return kept(map, `${filters.severity} ${filters.kev} ${filters.cwes.join(' ')}`, filters);
}

/** Writes one batch's texts, laid out from `start` to `end`, at their place in the file. */
function writeAll(file: TextFile, texts: readonly (string | undefined)[], column: TextColumn, start: number, end: number): void {
  const buffer = Buffer.allocUnsafe(end - start);
  texts.forEach((text, i) => {
    if (text !== undefined) buffer.write(text, column.offset[i]! - start, 'utf8');
  });
  file.writeAt(buffer, buffer.length, start);
}
