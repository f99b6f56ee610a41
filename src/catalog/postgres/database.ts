// PostgreSQL connections as every user of the shared store opens them, and its migrations. The store
// itself is postgres-store.ts.
import pg from 'pg';
import { newProjectNames, PROJECT_NAMES_MIGRATION, type ProjectNameRow } from '../store/project-names.js';
import { APPLIED_VERSION, LATEST_MIGRATION, migrationsTable, pendingMigrations } from '../store/store-migrations.js';

export class DatabaseError extends Error {}

/**
 * The longest a statement may go unanswered by default: far above the slowest (an import's chunk of 5000
 * rows), and short enough that a link that died silently (no reset, packets dropped) is given up on.
 */
export const QUERY_TIMEOUT_MS = 60_000;

export function connect(url: string, queryTimeoutMs = QUERY_TIMEOUT_MS): pg.Client {
  // A stuck database must not hang a start, an import or a reload forever: a connection is given 5 s, a
  // statement `queryTimeoutMs` (then the connection is destroyed, pg's end() does so for a hung query), and
  // TCP keepalive notices a peer gone silent on an idle connection.
  return new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: 5000,
    query_timeout: queryTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    application_name: 'cve-records',
  });
}

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>, queryTimeoutMs?: number): Promise<T> {
  const client = connect(url, queryTimeoutMs);
  client.on('error', () => {}); // reported by the failing query instead
  try {
    await client.connect();
  } catch (error) {
    throw new DatabaseError(`cannot connect to PostgreSQL: ${(error as Error).message}`);
  }
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Applies the migrations not yet applied, under a lock so that concurrent runs do not race. Returns how many ran. */
export async function migrate(url: string): Promise<number> {
  return withClient(url, async (client) => {
    await client.query('BEGIN');
    try {
      await client.query(`SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.cve_records_migrations'))`);
      await client.query(migrationsTable('postgres'));
      const { rows } = await client.query<{ version: number }>(APPLIED_VERSION);
      const applied = rows[0]?.version ?? 0;
      for (const statement of pendingMigrations('postgres', applied)) await client.query(statement);
      if (applied < PROJECT_NAMES_MIGRATION) {
        const held = await client.query<{ project: string }>('SELECT DISTINCT project FROM cve_records');
        await insertNames(client, newProjectNames()(held.rows.map((row) => row.project)));
      }
      await client.query('COMMIT');
      return LATEST_MIGRATION - applied;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw new DatabaseError(`migration failed: ${(error as Error).message}`);
    }
  });
}

/** Adds project names and their keys (project-names.ts) to those held. */
export async function insertNames(client: pg.Client, rows: readonly ProjectNameRow[]): Promise<void> {
  if (rows.length === 0) return;
  await client.query(
    `INSERT INTO cve_project_names (project, key) SELECT project, key FROM jsonb_to_recordset($1::jsonb) AS r(project text, key text)
     ON CONFLICT DO NOTHING`,
    [JSON.stringify(rows)],
  );
}
