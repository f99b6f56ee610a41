// The store of record on PostgreSQL, for deployments whose replicas share one source. The same tables as
// SQLite's (store/schema.ts); a step holds the catalog row's lock from its first statement to its commit,
// so steps of several writers are ordered and each gets its own sequence. The commit's update of the
// catalog row notifies every listening replica (schema.ts), which then reads the rows past its sequence.
import type pg from 'pg';
import type { CatalogProject, CatalogRemoval, SyncCursor } from '../../contract/index.js';
import { detailsJson } from '../../core/details-json.js';
import {
  type RecordRow,
  type RecordStore,
  recordOfRow,
  type StepEnd,
  type StoredRecord,
  StoreError,
  type StoreState,
  type StoreWriter,
} from '../../core/record-store.js';
import { newProjectNames } from '../store/project-names.js';
import { checkedFacts, type FactColumns, factColumns, factsOfColumns } from '../store/row-facts.js';
import { insertNames, withClient } from './database.js';

const TIME = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
// details as text: pg would otherwise parse every row's; jsonb's own text is not detailsJson's form, which
// the content hash and the merge's comparisons read, so it is put back in that form (rowRecord).
const RECORD_COLUMNS = `id, project, status, url, summary, details::text AS details, to_char(published, 'YYYY-MM-DD') AS published,
  ${TIME('modified')} AS modified, ${TIME('changed')} AS changed, severity, kev, cwes, content_hash`;
const STATE = `SELECT store_id, seq::float8 AS seq, to_char(last_verified, 'YYYY-MM-DD') AS last_verified, sync::text AS sync,
  ${TIME('feed_end')} AS feed_end FROM cve_catalog`;
/** Rows per statement when a step writes many (a baseline): a few megabytes of JSON each. */
const WRITE_CHUNK = 5000;
/** Rows per FETCH of a whole read: about 2 MB of details. */
const READ_BATCH = 1000;
/**
 * A step that writes at least this many rows (a baseline, an import) is followed by VACUUM (ANALYZE) of the
 * records table. Until the table is vacuumed its index on project cannot be counted from the index alone
 * (the visibility map is unset), and until it is analyzed the planner has no statistics: the next delta's
 * look-up of the known projects' counts took 240 of its 540 ms at 340,000 records, 5 ms after it
 * (docs/PERFORMANCE.md, "The PostgreSQL step after a baseline, stop 40"). Autovacuum would get there in
 * time where it is on; this does not wait for it, and costs under a second at that size. Best effort: a page
 * is marked all-visible only when no transaction older than its rows is still open.
 */
const VACUUM_AFTER_ROWS = 10_000;

export function rowRecord(row: RecordRow & FactColumns): StoredRecord {
  return {
    record: recordOfRow(row),
    details: row.details === null ? undefined : detailsJson(JSON.parse(row.details)),
    facts: factsOfColumns(row),
  };
}

async function readState(client: pg.Client, lock: boolean): Promise<StoreState> {
  const { rows } = await client.query<{
    store_id: string;
    seq: number;
    last_verified: string;
    sync: string | null;
    feed_end: string | null;
  }>(`${STATE}${lock ? ' FOR UPDATE' : ''}`);
  const row = rows[0];
  if (row === undefined) throw new StoreError('PostgreSQL holds no catalog row: run cve-records db migrate');
  return {
    storeId: row.store_id,
    sequence: row.seq,
    lastVerified: row.last_verified,
    sync: row.sync === null ? undefined : (JSON.parse(row.sync) as SyncCursor),
    feedEnd: row.feed_end === null ? Number.NEGATIVE_INFINITY : Date.parse(row.feed_end),
  };
}

const projectRows = (rows: { name: string; aliases: string[] }[]): CatalogProject[] =>
  rows.map((row) => ({ name: row.name, aliases: row.aliases }));

export function postgresStore(url: string, queryTimeoutMs?: number): RecordStore {
  const inTransaction = <T>(mode: string, work: (client: pg.Client) => Promise<T>): Promise<T> =>
    withClient(
      url,
      async (client) => {
        await client.query(`BEGIN ${mode}`);
        try {
          const result = await work(client);
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          throw error;
        }
      },
      queryTimeoutMs,
    );

  return {
    name: 'PostgreSQL',
    state: () => withClient(url, (client) => readState(client, false), queryTimeoutMs),

    step: async (work) => {
      let written = 0;
      const step = await inTransaction('ISOLATION LEVEL READ COMMITTED', async (client) => {
        const before = await readState(client, true);
        const sequence = before.sequence + 1;
        let wrote = false;
        const newNames = newProjectNames();
        const writer: StoreWriter = {
          state: before,
          async held(ids) {
            const records = new Map<string, StoredRecord>();
            const { rows } = await client.query<RecordRow & FactColumns>(
              `SELECT ${RECORD_COLUMNS} FROM cve_records WHERE id = ANY($1::text[])`,
              [ids],
            );
            for (const row of rows) records.set(row.id, rowRecord(row));
            const removals = new Map<string, string>();
            const kept = await client.query<{ id: string; modified: string }>(
              `SELECT id, ${TIME('modified')} AS modified FROM cve_removals WHERE id = ANY($1::text[])`,
              [ids],
            );
            for (const row of kept.rows) removals.set(row.id, row.modified);
            return { records, removals };
          },
          async aliasesOf(names) {
            const { rows } = await client.query<{ name: string; aliases: string[] }>(
              'SELECT name, aliases FROM cve_projects WHERE name = ANY($1::text[])',
              [names],
            );
            return new Map(rows.map((row) => [row.name, row.aliases]));
          },
          async knownNames({ names, groups: groupKeys, products }) {
            // Ordered by the keys' and names' bytes, as SQLite's binary order gives them.
            const groups = await client.query<{ key: string; project: string }>(
              `SELECT key, project FROM cve_project_groups
               WHERE key = ANY($1::text[]) OR product = ANY($2::text[]) OR vendor_product = ANY($2::text[]) ORDER BY key COLLATE "C"`,
              [groupKeys, products],
            );
            const projects = await client.query<{ project: string; records: number }>(
              `SELECT project, records FROM (
                 SELECT project, (SELECT count(*) FROM cve_records WHERE cve_records.project = wanted.project)::float8 AS records
                 FROM (SELECT project FROM cve_project_names WHERE key = ANY($1::text[]) UNION SELECT unnest($2::text[])) AS wanted
               ) AS counted
               WHERE records > 0 ORDER BY project COLLATE "C"`,
              [names, groups.rows.map((row) => row.project)],
            );
            const grouped = await client.query('SELECT 1 FROM cve_project_groups LIMIT 1');
            const aliases =
              grouped.rowCount === 0
                ? {
                    aliases: projectRows(
                      (await client.query<{ name: string; aliases: string[] }>('SELECT name, aliases FROM cve_projects')).rows,
                    ),
                  }
                : {};
            return {
              projects: new Map(projects.rows.map((row) => [row.project, row.records])),
              ...aliases,
              groups: new Map(groups.rows.map((row) => [row.key, row.project])),
            };
          },
          async upsert(records) {
            for (let start = 0; start < records.length; start += WRITE_CHUNK) {
              const chunk = records.slice(start, start + WRITE_CHUNK);
              // The rows as one JSON array, each record's details text spliced in as it is.
              // Every row checked before any is written: a step with an invalid row writes nothing.
              const rows = chunk.map((stored) => {
                const { record: r, details } = stored;
                const own = JSON.stringify({
                  ...factColumns(checkedFacts(stored)),
                  id: r.id,
                  project: r.project,
                  status: r.status,
                  url: r.url,
                  summary: r.summary,
                  published: r.published,
                  modified: r.modified,
                  changed: r.changed,
                }).slice(0, -1);
                return `${own}${details === undefined ? '' : `,"details":${details}`}}`;
              });
              await client.query(
                `INSERT INTO cve_records (id, project, status, url, summary, published, modified, changed, details,
                   severity, kev, cwes, content_hash, seq)
                 SELECT id, project, status, url, summary, published, modified, changed, details, severity, kev, cwes, content_hash, $2
                   FROM jsonb_to_recordset($1::jsonb) AS r(id text, project text, status text, url text, summary text,
                     published date, modified timestamptz, changed timestamptz, details jsonb, severity smallint, kev smallint,
                     cwes text, content_hash text)
                 ON CONFLICT (id) DO UPDATE SET project = excluded.project, status = excluded.status, url = excluded.url,
                   summary = excluded.summary, published = excluded.published, modified = excluded.modified,
                   changed = excluded.changed, details = excluded.details, severity = excluded.severity, kev = excluded.kev,
                   cwes = excluded.cwes, content_hash = excluded.content_hash, seq = excluded.seq, updated_at = now()`,
                [`[${rows.join(',')}]`, sequence],
              );
              await client.query('DELETE FROM cve_removals WHERE id = ANY($1::text[])', [chunk.map(({ record }) => record.id)]);
              await insertNames(client, newNames(chunk.map(({ record }) => record.project)));
            }
            wrote ||= records.length > 0;
            written += records.length;
          },
          async remove(removals) {
            if (removals.length === 0) return;
            await client.query('DELETE FROM cve_records WHERE id = ANY($1::text[])', [removals.map((removal) => removal.id)]);
            await client.query(
              `INSERT INTO cve_removals (id, modified, seq) SELECT id, modified, $2 FROM jsonb_to_recordset($1::jsonb) AS r(id text, modified timestamptz)
               ON CONFLICT (id) DO UPDATE SET modified = excluded.modified, seq = excluded.seq`,
              [JSON.stringify(removals), sequence],
            );
            wrote = true;
          },
          async setAliases(projects) {
            if (projects.length === 0) return;
            const { rowCount } = await client.query(
              `INSERT INTO cve_projects (name, aliases, seq) SELECT name, aliases, $2 FROM jsonb_to_recordset($1::jsonb) AS r(name text, aliases jsonb)
               ON CONFLICT (name) DO UPDATE SET aliases = excluded.aliases, seq = excluded.seq WHERE cve_projects.aliases IS DISTINCT FROM excluded.aliases`,
              [JSON.stringify(projects), sequence],
            );
            wrote ||= (rowCount ?? 0) > 0;
          },
          async setGroups(groups, whole) {
            if (whole) await client.query('DELETE FROM cve_project_groups');
            if (groups.size === 0) return;
            await client.query(
              `INSERT INTO cve_project_groups (key, project) SELECT key, project FROM jsonb_to_recordset($1::jsonb) AS r(key text, project text)
               ON CONFLICT (key) DO UPDATE SET project = excluded.project`,
              [JSON.stringify([...groups].map(([key, project]) => ({ key, project })))],
            );
          },
        };
        const { end, result } = await work(writer);
        const moved = wrote || end.lastVerified !== before.lastVerified;
        await finish(client, moved ? sequence : before.sequence, end);
        return { sequence: moved ? sequence : before.sequence, result };
      });
      // After the commit: VACUUM cannot run inside a transaction.
      if (written >= VACUUM_AFTER_ROWS) await withClient(url, (client) => client.query('VACUUM (ANALYZE) cve_records'));
      return step;
    },

    changesSince: (since, limit) =>
      inTransaction('ISOLATION LEVEL REPEATABLE READ READ ONLY', async (client) => {
        const now = await readState(client, false);
        if (now.sequence <= since) return undefined;
        const counted = await client.query<{ count: number }>('SELECT count(*)::float8 AS count FROM cve_records WHERE seq > $1', [since]);
        if (counted.rows[0]!.count > limit) return 'too-many' as const;
        const records = await client.query<RecordRow & FactColumns>(`SELECT ${RECORD_COLUMNS} FROM cve_records WHERE seq > $1`, [since]);
        const removed = await client.query<CatalogRemoval>(`SELECT id, ${TIME('modified')} AS modified FROM cve_removals WHERE seq > $1`, [
          since,
        ]);
        const projects = await client.query<{ name: string; aliases: string[] }>('SELECT name, aliases FROM cve_projects WHERE seq > $1', [
          since,
        ]);
        return {
          sequence: now.sequence,
          lastVerified: now.lastVerified,
          upserted: records.rows.map(rowRecord),
          removed: removed.rows,
          projects: projectRows(projects.rows),
        };
      }),

    read: (work) =>
      inTransaction('ISOLATION LEVEL REPEATABLE READ READ ONLY', async (client) => {
        const state = await readState(client, false);
        const removed = await client.query<CatalogRemoval>(`SELECT id, ${TIME('modified')} AS modified FROM cve_removals`);
        const projects = await client.query<{ name: string; aliases: string[] }>('SELECT name, aliases FROM cve_projects');
        await client.query(`DECLARE records NO SCROLL CURSOR FOR SELECT ${RECORD_COLUMNS} FROM cve_records`);
        async function* batches(): AsyncGenerator<StoredRecord[], void, undefined> {
          for (;;) {
            const { rows } = await client.query<RecordRow & FactColumns>(`FETCH ${READ_BATCH} FROM records`);
            if (rows.length === 0) return;
            yield rows.map(rowRecord);
          }
        }
        return work({ state, removed: removed.rows, projects: projectRows(projects.rows), records: batches() });
      }),

    close: async () => {},
  };
}

async function finish(client: pg.Client, sequence: number, end: StepEnd): Promise<void> {
  await client.query('UPDATE cve_catalog SET seq = $1, last_verified = $2, sync = $3::jsonb, feed_end = $4', [
    sequence,
    end.lastVerified,
    end.sync === undefined ? null : JSON.stringify(end.sync),
    Number.isFinite(end.feedEnd) ? new Date(end.feedEnd).toISOString() : null,
  ]);
}
