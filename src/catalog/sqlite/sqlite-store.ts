// The store of record in one SQLite file, through Node's built-in node:sqlite (no native build). WAL
// journal: one writer (a sync step) and any number of readers (servers, in this process or others) at
// once, readers never blocked. node:sqlite is synchronous; a step's statements are short (a point read is
// microseconds, a step of 500 records tens of milliseconds), and a whole read yields between batches.
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { CatalogProject, CatalogRecord, CatalogRemoval, SyncCursor } from '../../contract/index.js';
import { recordHash } from '../../core/content-hash.js';
import {
  type RecordRow,
  type RecordStore,
  recordOfRow,
  type StepEnd,
  type StoreChanges,
  type StoreContents,
  type StoredRecord,
  StoreError,
  type StoreState,
  type StoreWriter,
} from '../../core/record-store.js';
import type { DetailFilters } from '../../core/record-table.js';
import type { TextStore } from '../../core/text-store.js';
import { newProjectNames, PROJECT_NAMES_MIGRATION } from '../store/project-names.js';
import { checkedFacts, type FactColumns, factColumns, factsOfColumns } from '../store/row-facts.js';
import { APPLIED_VERSION, migrationsTable, pendingMigrations } from '../store/store-migrations.js';

/** Whether a path names an SQLite store rather than a catalog file. */
export function isStorePath(path: string): boolean {
  return /\.(db|sqlite|sqlite3)$/i.test(path);
}

const RECORD_COLUMNS = 'id, project, status, url, summary, published, modified, changed, details';
const FACT_COLUMNS = 'severity, kev, cwes, content_hash';
/** Rows read between two turns of the event loop during a whole read. */
const READ_BATCH = 1000;
/**
 * A row as a server reads it whole or as a change: its short fields and facts, and its texts only when it
 * has no facts (to be checked and hashed where read); the texts of the others are read on demand (textsOf).
 */
/**
 * What a server reads of a row that has its facts: its short fields and facts, from the index of them
 * (schema.ts: cve_records_narrow, which leads with seq so a change's rows are a range of it), as arrays
 * in this order. Its texts are read on demand (textsOf); a row without facts is read whole.
 */
const NARROW_COLUMNS = `id, project, status, url, published, modified, changed, ${FACT_COLUMNS}`;
const NARROW_FROM = 'FROM cve_records INDEXED BY cve_records_narrow';
type NarrowRow = [string, string, string, string | null, string | null, string | null, string | null, number, number, string, string];
/** How long a writer waits for another's lock before giving up. */
const BUSY_TIMEOUT_MS = 30_000;

const stored = (row: RecordRow): StoredRecord => ({ record: recordOfRow(row), details: row.details ?? undefined });

/** A row read whole with its facts (if any), its filter sets shared through `filterSets`. */
const readRow =
  (filterSets: Map<string, DetailFilters>) =>
  (row: RecordRow & FactColumns): StoredRecord => ({
    record: recordOfRow(row),
    details: row.details ?? undefined,
    facts: factsOfColumns(row, filterSets),
  });

/** A narrow row as read (NARROW_COLUMNS, as an array): no object made by SQLite, none spread. */
const readNarrow =
  (filterSets: Map<string, DetailFilters>) =>
  (row: unknown): StoredRecord => {
    const [id, project, status, url, published, modified, changed, severity, kev, cwes, content_hash] = row as NarrowRow;
    const record: { -readonly [K in keyof CatalogRecord]: CatalogRecord[K] } = {
      id,
      project,
      status: status as CatalogRecord['status'],
      url,
    };
    if (published !== null) record.published = published;
    if (modified !== null) record.modified = modified;
    if (changed !== null) record.changed = changed;
    return { record, details: undefined, facts: factsOfColumns({ severity, kev, cwes, content_hash }, filterSets) };
  };

/** Every row past `since` (0: all), those with facts from the narrow index alone, then those without, whole. */
function* rowsPast(db: DatabaseSync, since: number): Generator<StoredRecord, void, undefined> {
  const filterSets = new Map<string, DetailFilters>();
  // Statements of their own: a whole read iterates for as long as it takes, while other reads go on.
  const narrow = db.prepare(`SELECT ${NARROW_COLUMNS} ${NARROW_FROM} WHERE seq > ? AND content_hash IS NOT NULL`);
  narrow.setReturnArrays(true);
  const readOne = readNarrow(filterSets);
  for (const row of narrow.iterate(since)) yield readOne(row);
  const whole = readRow(filterSets);
  for (const row of db
    .prepare(`SELECT ${RECORD_COLUMNS}, ${FACT_COLUMNS} FROM cve_records WHERE seq > ? AND content_hash IS NULL`)
    .iterate(since))
    yield whole(row as unknown as RecordRow & FactColumns);
}

/**
 * Drops the records table's indexes (all but its primary key) when the step starts on an empty table, and
 * returns what makes them again. The first sync writes every record of a baseline: indexes built from the
 * rows at the end cost two fifths less CPU than indexes kept up row by row (docs/PERFORMANCE.md, "The
 * lead's work, stop 36"). All inside the step's transaction: a step that fails or is killed leaves them as
 * they were, and other connections see the table and its indexes as the last commit left them.
 */
function withoutIndexesWhileEmpty(db: DatabaseSync): () => void {
  if (db.prepare('SELECT 1 FROM cve_records LIMIT 1').get() !== undefined) return () => {};
  const indexes = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'cve_records' AND sql IS NOT NULL")
    .all() as unknown as { name: string; sql: string }[];
  for (const { name } of indexes) db.exec(`DROP INDEX "${name}"`);
  return () => {
    for (const index of indexes) db.exec(index.sql);
  };
}

/** Opens (creating and migrating when needed) the store at `path`; `readOnly` for servers that only read. */
export function openSqliteStore(path: string, { readOnly = false }: { readOnly?: boolean } = {}): RecordStore {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path, { readOnly });
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (!readOnly) {
      db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL');
      migrate(db);
    }
  } catch (error) {
    throw new StoreError(`cannot open the store ${path}: ${(error as Error).message}`);
  }
  const statements = new Map<string, StatementSync>();
  const sql = (text: string): StatementSync => {
    let statement = statements.get(text);
    if (statement === undefined) {
      statement = db.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };
  const state = (): StoreState => {
    const row = sql('SELECT store_id, seq, last_verified, sync, feed_end FROM cve_catalog').get() as
      | { store_id: string; seq: number; last_verified: string; sync: string | null; feed_end: string | null }
      | undefined;
    if (row === undefined) throw new StoreError(`${path} is not a store of CVE records (no catalog row): migrate it`);
    return {
      storeId: row.store_id,
      sequence: row.seq,
      lastVerified: row.last_verified,
      sync: row.sync === null ? undefined : (JSON.parse(row.sync) as SyncCursor),
      feedEnd: row.feed_end === null ? Number.NEGATIVE_INFINITY : Date.parse(row.feed_end),
    };
  };
  const inIds = (ids: readonly string[]) => JSON.stringify(ids);
  let stepping = Promise.resolve();

  const store: RecordStore = {
    name: path,
    state: async () => state(),

    async step(work) {
      // One step at a time in this process (SQLite's lock orders processes; this orders the awaits).
      const previous = stepping;
      let done!: () => void;
      stepping = new Promise((resolve) => (done = resolve));
      await previous;
      try {
        db.exec('BEGIN IMMEDIATE');
        try {
          const indexesBack = withoutIndexesWhileEmpty(db);
          const before = state();
          const sequence = before.sequence + 1;
          let wrote = false;
          const newNames = newProjectNames();
          const writer: StoreWriter = {
            state: before,
            async held(ids) {
              const records = new Map<string, StoredRecord>();
              for (const row of sql(`SELECT ${RECORD_COLUMNS} FROM cve_records WHERE id IN (SELECT value FROM json_each(?))`).all(
                inIds(ids),
              ) as unknown as RecordRow[])
                records.set(row.id, stored(row));
              const removals = new Map<string, string>();
              for (const row of sql('SELECT id, modified FROM cve_removals WHERE id IN (SELECT value FROM json_each(?))').all(
                inIds(ids),
              ) as unknown as { id: string; modified: string }[])
                removals.set(row.id, row.modified);
              return { records, removals };
            },
            async aliasesOf(names) {
              const rows = sql('SELECT name, aliases FROM cve_projects WHERE name IN (SELECT value FROM json_each(?))').all(
                inIds(names),
              ) as unknown as { name: string; aliases: string }[];
              return new Map(rows.map((row) => [row.name, JSON.parse(row.aliases) as string[]]));
            },
            async knownNames({ names, groups: groupKeys, products }) {
              const groups = sql(
                `SELECT key, project FROM cve_project_groups WHERE key IN (SELECT value FROM json_each(?1))
                   OR product IN (SELECT value FROM json_each(?2)) OR vendor_product IN (SELECT value FROM json_each(?2))
                 ORDER BY key`,
              ).all(inIds(groupKeys), inIds(products)) as unknown as { key: string; project: string }[];
              // Each project counted by the records table's index on project: a range of it, not the table.
              const projects = sql(
                `SELECT project, records FROM (
                   SELECT project, (SELECT count(*) FROM cve_records WHERE cve_records.project = wanted.project) AS records
                   FROM (SELECT project FROM cve_project_names WHERE key IN (SELECT value FROM json_each(?1))
                         UNION SELECT value FROM json_each(?2)) AS wanted)
                 WHERE records > 0 ORDER BY project`,
              ).all(inIds(names), inIds(groups.map((row) => row.project))) as unknown as { project: string; records: number }[];
              const grouped = sql('SELECT 1 FROM cve_project_groups LIMIT 1').get() !== undefined;
              return {
                projects: new Map(projects.map((row) => [row.project, Number(row.records)])),
                ...(grouped ? {} : { aliases: projectRows(sql('SELECT name, aliases FROM cve_projects').all()) }),
                groups: new Map(groups.map((row) => [row.key, row.project])),
              };
            },
            async upsert(records) {
              const upsert = sql(
                `INSERT INTO cve_records (${RECORD_COLUMNS}, ${FACT_COLUMNS}, seq, updated_at)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                 ON CONFLICT (id) DO UPDATE SET project = excluded.project, status = excluded.status, url = excluded.url,
                   summary = excluded.summary, published = excluded.published, modified = excluded.modified,
                   changed = excluded.changed, details = excluded.details, severity = excluded.severity, kev = excluded.kev,
                   cwes = excluded.cwes, content_hash = excluded.content_hash, seq = excluded.seq, updated_at = excluded.updated_at`,
              );
              const unremove = sql('DELETE FROM cve_removals WHERE id = ?');
              const name = sql('INSERT INTO cve_project_names (project, key) VALUES (?, ?) ON CONFLICT DO NOTHING');
              // Every row checked before any is written: a step with an invalid row writes nothing.
              const facts = records.map((record) => factColumns(checkedFacts(record)));
              for (const [i, { record: r, details }] of records.entries()) {
                const { severity, kev, cwes, content_hash } = facts[i]!;
                upsert.run(
                  r.id,
                  r.project,
                  r.status,
                  r.url,
                  r.summary ?? null,
                  r.published ?? null,
                  r.modified ?? null,
                  r.changed ?? null,
                  details ?? null,
                  severity,
                  kev,
                  cwes,
                  content_hash,
                  sequence,
                );
                unremove.run(r.id);
              }
              for (const { project, key } of newNames(records.map(({ record }) => record.project))) name.run(project, key);
              wrote ||= records.length > 0;
            },
            async remove(removals) {
              const drop = sql('DELETE FROM cve_records WHERE id = ?');
              const keep = sql(
                'INSERT INTO cve_removals (id, modified, seq) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET modified = excluded.modified, seq = excluded.seq',
              );
              for (const removal of removals) {
                drop.run(removal.id);
                keep.run(removal.id, removal.modified, sequence);
              }
              wrote ||= removals.length > 0;
            },
            async setAliases(projects) {
              const set = sql(
                `INSERT INTO cve_projects (name, aliases, seq) VALUES (?, ?, ?)
                 ON CONFLICT (name) DO UPDATE SET aliases = excluded.aliases, seq = excluded.seq WHERE cve_projects.aliases IS NOT excluded.aliases`,
              );
              for (const project of projects) {
                const { changes } = set.run(project.name, JSON.stringify(project.aliases), sequence);
                if (Number(changes) > 0) wrote = true;
              }
            },
            async setGroups(groups, whole) {
              if (whole) sql('DELETE FROM cve_project_groups').run();
              const set = sql(
                'INSERT INTO cve_project_groups (key, project) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET project = excluded.project',
              );
              for (const [key, project] of groups) set.run(key, project);
            },
          };
          const { end, result } = await work(writer);
          const moved = wrote || end.lastVerified !== before.lastVerified;
          indexesBack();
          finish(sql, moved ? sequence : before.sequence, end);
          db.exec('COMMIT');
          return { sequence: moved ? sequence : before.sequence, result };
        } catch (error) {
          if (db.isTransaction) db.exec('ROLLBACK');
          throw error;
        }
      } finally {
        done();
      }
    },

    async changesSince(since, limit) {
      return readTransaction(db, () => {
        const now = state();
        if (now.sequence <= since) return undefined;
        const { count } = sql('SELECT count(*) AS count FROM cve_records WHERE seq > ?').get(since) as { count: number };
        if (count > limit) return 'too-many' as const;
        const changes: StoreChanges = {
          sequence: now.sequence,
          lastVerified: now.lastVerified,
          upserted: [...rowsPast(db, since)],
          removed: sql('SELECT id, modified FROM cve_removals WHERE seq > ?').all(since) as unknown as CatalogRemoval[],
          projects: projectRows(sql('SELECT name, aliases FROM cve_projects WHERE seq > ?').all(since)),
        };
        return changes;
      });
    },

    async read(work, { narrow: leaveTexts = false } = {}) {
      // A read transaction holds one version of the file for the whole read, however many batches it takes.
      db.exec('BEGIN');
      try {
        const contents: StoreContents = {
          state: state(),
          removed: sql('SELECT id, modified FROM cve_removals').all() as unknown as CatalogRemoval[],
          projects: projectRows(sql('SELECT name, aliases FROM cve_projects').all()),
          records: batches(leaveTexts ? rowsPast(db, 0) : wholeRows(db)),
        };
        return await work(contents);
      } finally {
        if (db.isTransaction) db.exec('COMMIT');
      }
    },

    textsOf: (ids, hashOf) => rowTexts(sql, ids, hashOf),

    async close() {
      await stepping;
      if (db.isOpen) db.close();
    },
  };
  return store;
}

function migrate(db: DatabaseSync): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(migrationsTable('sqlite'));
    const { version } = db.prepare(APPLIED_VERSION).get() as { version: number };
    for (const statement of pendingMigrations('sqlite', version)) db.exec(statement);
    if (version < PROJECT_NAMES_MIGRATION) {
      const name = db.prepare('INSERT INTO cve_project_names (project, key) VALUES (?, ?)');
      const held = db.prepare('SELECT DISTINCT project FROM cve_records').all() as unknown as { project: string }[];
      for (const { project, key } of newProjectNames()(held.map((row) => row.project))) name.run(project, key);
    }
    db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

function finish(sql: (text: string) => StatementSync, sequence: number, end: StepEnd): void {
  sql('UPDATE cve_catalog SET seq = ?, last_verified = ?, sync = ?, feed_end = ?').run(
    sequence,
    end.lastVerified,
    end.sync === undefined ? null : JSON.stringify(end.sync),
    Number.isFinite(end.feedEnd) ? new Date(end.feedEnd).toISOString() : null,
  );
}

function readTransaction<T>(db: DatabaseSync, work: () => T): T {
  db.exec('BEGIN');
  try {
    return work();
  } finally {
    if (db.isTransaction) db.exec('COMMIT');
  }
}

function projectRows(rows: unknown[]): CatalogProject[] {
  return (rows as { name: string; aliases: string }[]).map((row) => ({ name: row.name, aliases: JSON.parse(row.aliases) as string[] }));
}

/** Every row whole, with its facts (if any). */
function* wholeRows(db: DatabaseSync): Generator<StoredRecord, void, undefined> {
  const read = readRow(new Map());
  for (const row of db.prepare(`SELECT ${RECORD_COLUMNS}, ${FACT_COLUMNS} FROM cve_records`).iterate())
    yield read(row as unknown as RecordRow & FactColumns);
}

/** Rows a batch at a time, the event loop given back between batches. */
async function* batches(rows: Iterator<StoredRecord>): AsyncGenerator<StoredRecord[], void, undefined> {
  let batch: StoredRecord[] = [];
  for (let row = rows.next(); !row.done; row = rows.next()) {
    batch.push(row.value);
    if (batch.length === READ_BATCH) {
      yield batch;
      batch = [];
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * The texts of the records of `ids` read from their rows when asked for (a point read by id, microseconds):
 * the one column asked for, so a summary is read without the details beside it. A row with facts was
 * checked by its writer (the partial index of rows without facts is empty but for another program's rows);
 * one without is read only when it is the row the snapshot checked (its hash is `hashOf` its position). A
 * record gone from the store since reads as having none.
 */
function rowTexts(sql: (text: string) => StatementSync, ids: readonly string[], hashOf: (position: number) => bigint): TextStore {
  const read = (column: 'summary' | 'details', position: number): string | undefined => {
    const id = ids[position]!;
    const row = sql(`SELECT ${column} AS text FROM cve_records WHERE id = ?`).get(id) as { text: string | null } | undefined;
    if (row === undefined || row.text === null) return undefined;
    if (sql('SELECT 1 FROM cve_records INDEXED BY cve_records_unchecked WHERE id = ? AND content_hash IS NULL').get(id) === undefined)
      return row.text;
    const whole = sql(`SELECT ${RECORD_COLUMNS} FROM cve_records WHERE id = ?`).get(id) as RecordRow | undefined;
    return whole !== undefined && recordHash(recordOfRow(whole), whole.details ?? undefined) === hashOf(position)
      ? (whole[column] ?? undefined)
      : undefined;
  };
  return { summary: (position) => read('summary', position), details: (position) => read('details', position) };
}
