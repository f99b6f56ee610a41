// The records table as a snapshot, with its summaries and details kept out of the process. The table is
// read a batch of rows at a time through a cursor; each row is checked, its filter columns are taken from
// its details, and its texts are written to a private temporary file (core/text-file.ts) that requests read
// them from, as they read a snapshot file. A load holds one batch of texts at a time, whatever the size of
// the details, and the served snapshot holds none.
import type pg from 'pg';
import type { RecordDetails } from '../../contract/index.js';
import { detailsJson } from '../../core/details-json.js';
import { type DetailFilters, detailFilters, recordTable, type TableRecord } from '../../core/record-table.js';
import { assembleSnapshot, ContentHash, inListingOrder, type Snapshot } from '../../core/snapshot.js';
import { TextFile } from '../../core/text-file.js';
import { layOutTexts, type TextColumn } from '../../core/text-store.js';
import { type CatalogProblem, recordProblems } from '../catalog-validation.js';
import { CatalogError } from '../json/catalog-file.js';
import { DatabaseError } from './database.js';

/** Rows per FETCH: about 2 MB of details, a few milliseconds of work between two turns of the event loop. */
const BATCH_ROWS = 1000;
/** Records hashed between two turns of the event loop, so a reload does not hold up requests. */
const HASH_STEP = 2000;

interface Row {
  id: string;
  project: string;
  status: string;
  url: string | null;
  summary: string | null;
  published: string | null;
  modified: string | null;
  details: string | null;
}

/** A record read, and where its texts are in the file (offset -1: it has none). */
interface ReadRecord extends TableRecord {
  readonly summaryAt: number;
  readonly summaryBytes: number;
  readonly detailsAt: number;
  readonly detailsBytes: number;
}

/** The table's snapshot, and the file its texts are read from (closed when the snapshot is collected). */
export async function loadTableSnapshot(client: pg.Client, files: Set<TextFile>): Promise<{ snapshot: Snapshot; file: TextFile }> {
  const file = TextFile.temporary(files);
  try {
    const { lastVerified, records, problems } = await readTable(client, file);
    if (problems.length > 0) throw new CatalogError('PostgreSQL', problems);
    const sorted = inListingOrder(records);
    const summaries = { offset: Float64Array.from(sorted, (r) => r.summaryAt), length: Uint32Array.from(sorted, (r) => r.summaryBytes) };
    const details = { offset: Float64Array.from(sorted, (r) => r.detailsAt), length: Uint32Array.from(sorted, (r) => r.detailsBytes) };
    const texts = file.texts(0, summaries, details);
    // The version every source gives the same records: their fields and details in listing order, the
    // details as written (detailsJson, which the details answer sends as stored), read back from the file.
    const hash = new ContentHash(lastVerified);
    for (let position = 0; position < sorted.length; position++) {
      if (position % HASH_STEP === HASH_STEP - 1) await new Promise((resolve) => setImmediate(resolve));
      hash.add({ ...sorted[position]!, summary: texts.summary(position) }, texts.details(position));
    }
    const snapshot = assembleSnapshot({
      version: hash.version(),
      hashes: { column: hash.hashes(), sum: hash.sum },
      lastVerified,
      table: recordTable(sorted),
      texts,
      aliases: new Map(),
    });
    // The file stays open while any snapshot reads these texts: this one, or one a change made from it.
    file.closeWith(texts);
    return { snapshot, file };
  } catch (error) {
    file.close();
    throw error;
  }
}

async function readTable(
  client: pg.Client,
  file: TextFile,
): Promise<{ lastVerified: string; records: ReadRecord[]; problems: CatalogProblem[] }> {
  const query = <R extends object>(text: string) =>
    client.query<R>(text).catch((error: Error) => {
      throw new DatabaseError(`cannot read the records table: ${error.message}`);
    });
  const records: ReadRecord[] = [];
  const problems: CatalogProblem[] = [];
  // One transaction, so the rows and lastVerified are one version of the table; a cursor needs one anyway.
  await query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const meta = await query<{ last_verified: string }>(`SELECT to_char(last_verified, 'YYYY-MM-DD') AS last_verified FROM cve_catalog`);
    // details as text: pg would otherwise parse every row's into objects, all of them at once.
    await query(
      `DECLARE records NO SCROLL CURSOR FOR
         SELECT id, project, status, url, summary, details::text AS details, to_char(published, 'YYYY-MM-DD') AS published,
                to_char(modified AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS modified
           FROM cve_records`,
    );
    // Projects, statuses and filter columns repeat across rows: every record of the load keeps one shared
    // copy of each rather than its own, which is a third of what the records being read hold.
    const names = new Map<string, string>();
    const filterSets = new Map<string, DetailFilters>();
    let end = 0;
    let index = 0;
    for (;;) {
      const { rows } = await query<Row>(`FETCH ${BATCH_ROWS} FROM records`);
      if (rows.length === 0) break;
      const texts: (string | undefined)[] = [];
      const read: TableRecord[] = [];
      // Each row is let go of as soon as it is taken: the collections its parsing causes then find the rows
      // done with already garbage rather than moving them to the old generation (the load's peak: about 440 MB
      // instead of 650 at 340,000 records).
      for (let row = rows.shift(); row !== undefined; row = rows.shift()) {
        const { id, project, status, url, summary, published, modified, details: json } = row;
        const own = {
          id,
          project: kept(names, project, project),
          status: kept(names, status, status),
          url,
          ...(published === null ? {} : { published }),
          ...(modified === null ? {} : { modified }),
        };
        const details = json === null ? undefined : (JSON.parse(json) as RecordDetails);
        const record = { ...own, ...(summary === null ? {} : { summary }), ...(details === undefined ? {} : { details }) };
        // Every row is checked as a catalog file's record is. The table's constraints cover ids, status,
        // project and url, but not what a url may link to, the dates' forms, or the details (jsonb takes
        // any JSON), and the table may be written by more than the importer. A row is parsed here anyway
        // for its filter columns, so checking it costs little; an invalid row refuses the whole load.
        const before = problems.length;
        recordProblems(record, `/records/${index++}`, problems);
        if (problems.length > before) continue;
        // What stays in memory of the row: its own short fields and its filter columns, not its texts.
        read.push({ ...(own as Omit<TableRecord, 'filters'>), filters: keptFilters(filterSets, detailFilters(details)) });
        texts.push(summary ?? undefined, details === undefined ? undefined : detailsJson(details));
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
    return {
      // Before the first import the table is empty and has no verification date: today's, as migrate left it.
      lastVerified: meta.rows[0]?.last_verified ?? new Date().toISOString().slice(0, 10),
      records,
      problems,
    };
  } finally {
    await client.query('ROLLBACK').catch(() => {});
  }
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
