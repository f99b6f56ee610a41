// PostgreSQL as the source of record for every replica: connect, migrate, upsert an import in one
// transaction. Replicas read the table with table-snapshot.ts.
import pg from 'pg';
import type { CatalogFile, CatalogRecord } from '../../contract/index.js';
import { type CatalogDetails, catalogRecordJson, objectDetails } from '../../core/catalog-details.js';
import { MIGRATIONS } from './schema.js';

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
      await client.query(
        'CREATE TABLE IF NOT EXISTS cve_records_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const { rows } = await client.query<{ version: number }>('SELECT coalesce(max(version), 0) AS version FROM cve_records_migrations');
      const applied = rows[0]?.version ?? 0;
      for (let version = applied + 1; version <= MIGRATIONS.length; version++) {
        await client.query(MIGRATIONS[version - 1]!);
        await client.query('INSERT INTO cve_records_migrations (version) VALUES ($1)', [version]);
      }
      await client.query('COMMIT');
      return MIGRATIONS.length - applied;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw new DatabaseError(`migration failed: ${(error as Error).message}`);
    }
  });
}

const UPSERT_CHUNK = 5000;

/**
 * Inserts or updates every record of the catalog and its lastVerified, all in one transaction; `details` are
 * the records' (by their index in catalog.records), by default those the records hold.
 */
export function upsertCatalog(url: string, catalog: CatalogFile, details?: CatalogDetails): Promise<void> {
  return applyToDatabase(url, { lastVerified: catalog.lastVerified, upsert: catalog.records, details, remove: [] });
}

/**
 * Inserts or updates some records, deletes others, and sets lastVerified, all in one transaction: what a sync
 * step changed, so a step costs what it changed rather than the whole table. Replicas hear it as one change.
 * The details of the records upserted are `details`' (by index in `upsert`), by default those they hold.
 */
export async function applyToDatabase(
  url: string,
  change: {
    readonly lastVerified: string;
    readonly upsert: readonly CatalogRecord[];
    readonly details?: CatalogDetails | undefined;
    readonly remove: readonly string[];
  },
): Promise<void> {
  const details = change.details ?? objectDetails(change.upsert);
  await withClient(url, async (client) => {
    await client.query('BEGIN');
    try {
      if (change.remove.length > 0) await client.query('DELETE FROM cve_records WHERE id = ANY($1::text[])', [change.remove]);
      for (let start = 0; start < change.upsert.length; start += UPSERT_CHUNK) {
        // The rows as one JSON array, each record's details text spliced in as read (a field left out
        // is null to jsonb_to_recordset).
        const rows: string[] = [];
        for (let i = start; i < Math.min(start + UPSERT_CHUNK, change.upsert.length); i++) {
          rows.push(catalogRecordJson(change.upsert[i]!, details.text(i)));
        }
        await client.query(
          `INSERT INTO cve_records (id, project, status, url, summary, published, modified, details)
           SELECT id, project, status, url, summary, published, modified, details
             FROM jsonb_to_recordset($1::jsonb)
               AS r(id text, project text, status text, url text, summary text, published date, modified timestamptz, details jsonb)
           ON CONFLICT (id) DO UPDATE SET project = excluded.project, status = excluded.status, url = excluded.url,
             summary = excluded.summary, published = excluded.published, modified = excluded.modified,
             details = excluded.details, updated_at = now()
           WHERE (cve_records.project, cve_records.status, cve_records.url, cve_records.summary, cve_records.published,
                  cve_records.modified, cve_records.details)
             IS DISTINCT FROM (excluded.project, excluded.status, excluded.url, excluded.summary, excluded.published,
                  excluded.modified, excluded.details)`,
          [`[${rows.join(',')}]`],
        );
      }
      await client.query(
        `INSERT INTO cve_catalog (singleton, last_verified) VALUES (true, $1)
         ON CONFLICT (singleton) DO UPDATE SET last_verified = excluded.last_verified`,
        [change.lastVerified],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw new DatabaseError(`import into PostgreSQL failed, nothing was changed: ${(error as Error).message}`);
    }
  });
}
