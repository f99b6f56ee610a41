// The migrations not yet applied, for each engine's runner to apply in order, in one transaction under its
// lock (so that concurrent runs do not race), recording each in cve_records_migrations.
import { MIGRATIONS, type Migration } from './schema.js';

export function migrationsTable(dialect: keyof Migration): string {
  const appliedAt =
    dialect === 'postgres' ? 'timestamptz NOT NULL DEFAULT now()' : "text NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))";
  return `CREATE TABLE IF NOT EXISTS cve_records_migrations (version integer PRIMARY KEY, applied_at ${appliedAt})`;
}

export const APPLIED_VERSION = 'SELECT coalesce(max(version), 0) AS version FROM cve_records_migrations';

/** The statements that bring a store at migration `applied` to the latest, each followed by its record. */
export function pendingMigrations(dialect: keyof Migration, applied: number): string[] {
  const statements: string[] = [];
  for (let version = applied + 1; version <= MIGRATIONS.length; version++) {
    const sql = MIGRATIONS[version - 1]![dialect];
    if (sql !== '') statements.push(sql);
    statements.push(`INSERT INTO cve_records_migrations (version) VALUES (${version})`);
  }
  return statements;
}

export const LATEST_MIGRATION = MIGRATIONS.length;
