// The schema of the store of record, one list of migrations for both engines it runs on: SQLite (the
// embedded default, node:sqlite) and PostgreSQL (shared by replicas). Each migration is written once per
// dialect and applied in order by the same runner (store-migrations.ts), so the two always hold the same
// tables, columns and meaning; docs/OPERATIONS.md documents them.
//
// What the tables hold: a row per record (summary columns, details as JSON text, `modified`, `changed`),
// the removals (rejected records, for the change feed), each project's other spellings, and one catalog
// row (lastVerified, the sync cursor, the store's id and its change sequence). Every row a step writes is
// stamped with the step's sequence (`seq`), so a server holding sequence N reads exactly what changed
// after it; the catalog row's `seq` is the last step committed.

/** The PostgreSQL channel a step's commit notifies, with the new sequence as its payload. */
export const CHANGE_CHANNEL = 'cve_records_changed';

export interface Migration {
  readonly postgres: string;
  /** The same change for SQLite ('' where SQLite's earlier tables already had it). */
  readonly sqlite: string;
}

// SQLite's records table keeps its rowid: rows of a few kilobytes (the details) in a WITHOUT ROWID table
// took 72 s and 1.6 GB to insert 340,000 against 13 s and 0.7 GB (SQLite advises WITHOUT ROWID for rows
// under a twentieth of a page).
export const MIGRATIONS: readonly Migration[] = [
  {
    postgres: `CREATE TABLE cve_records (
       id         text PRIMARY KEY CHECK (id ~ '^CVE-[0-9]{4}-[0-9]{4,}$'),
       project    text NOT NULL CHECK (char_length(project) BETWEEN 1 AND 200),
       status     text NOT NULL CHECK (status IN ('public', 'assigned-no-public-record')),
       url        text CHECK ((status = 'public') = (url IS NOT NULL)),
       summary    text,
       published  date,
       updated_at timestamptz NOT NULL DEFAULT now()
     );
     CREATE TABLE cve_catalog (
       singleton     boolean PRIMARY KEY DEFAULT true CHECK (singleton),
       last_verified date NOT NULL
     );
     CREATE FUNCTION cve_records_notify() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       PERFORM pg_notify('${CHANGE_CHANNEL}', current_schema());
       RETURN NULL;
     END $$;
     CREATE TRIGGER cve_records_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cve_records
       FOR EACH STATEMENT EXECUTE FUNCTION cve_records_notify();
     CREATE TRIGGER cve_catalog_changed AFTER INSERT OR UPDATE OR DELETE ON cve_catalog
       FOR EACH STATEMENT EXECUTE FUNCTION cve_records_notify();`,
    sqlite: `CREATE TABLE cve_records (
       id         text PRIMARY KEY CHECK (id GLOB 'CVE-[0-9][0-9][0-9][0-9]-[0-9][0-9][0-9][0-9]*'),
       project    text NOT NULL CHECK (length(project) >= 1),
       status     text NOT NULL CHECK (status IN ('public', 'assigned-no-public-record')),
       url        text CHECK ((status = 'public') = (url IS NOT NULL)),
       summary    text,
       published  text,
       updated_at text NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
     );
     CREATE TABLE cve_catalog (
       singleton     integer PRIMARY KEY CHECK (singleton = 1),
       last_verified text NOT NULL
     );`,
  },
  {
    // Product names in real CVE records run to 474 characters: a project only has to be non-empty.
    postgres: `ALTER TABLE cve_records DROP CONSTRAINT cve_records_project_check,
       ADD CONSTRAINT cve_records_project_check CHECK (char_length(project) >= 1);`,
    sqlite: '',
  },
  {
    // When each record last changed upstream (cveMetadata.dateUpdated), for change feeds.
    postgres: 'ALTER TABLE cve_records ADD COLUMN modified timestamptz;',
    sqlite: 'ALTER TABLE cve_records ADD COLUMN modified text;',
  },
  {
    // What each record's CVE JSON 5 record says (RecordDetails), served by the details operations.
    postgres: 'ALTER TABLE cve_records ADD COLUMN details jsonb;',
    sqlite: 'ALTER TABLE cve_records ADD COLUMN details text;',
  },
  {
    // The store of record built for change: the change sequence on every row, removals and project
    // spellings in tables of their own, the sync cursor beside lastVerified (moved in the step's
    // transaction), and the store's id (a checkpoint names the store and the sequence it holds). A step's
    // commit notifies once, with its sequence, from the catalog row it updates last; the per-statement
    // notifications on the records table go, since replicas now read what changed rather than reload.
    postgres: `ALTER TABLE cve_records ADD COLUMN changed timestamptz, ADD COLUMN seq bigint NOT NULL DEFAULT 0;
       CREATE INDEX cve_records_seq ON cve_records (seq);
       CREATE INDEX cve_records_project ON cve_records (project);
       CREATE TABLE cve_removals (id text PRIMARY KEY, modified timestamptz NOT NULL, seq bigint NOT NULL);
       CREATE INDEX cve_removals_seq ON cve_removals (seq);
       CREATE TABLE cve_projects (name text PRIMARY KEY, aliases jsonb NOT NULL, seq bigint NOT NULL);
       CREATE INDEX cve_projects_seq ON cve_projects (seq);
       ALTER TABLE cve_catalog ADD COLUMN seq bigint NOT NULL DEFAULT 0, ADD COLUMN sync jsonb,
         ADD COLUMN store_id text NOT NULL DEFAULT md5(random()::text || clock_timestamp()::text),
         ADD COLUMN feed_end timestamptz;
       INSERT INTO cve_catalog (singleton, last_verified) VALUES (true, current_date) ON CONFLICT DO NOTHING;
       DROP TRIGGER cve_records_changed ON cve_records;
       DROP TRIGGER cve_catalog_changed ON cve_catalog;
       CREATE OR REPLACE FUNCTION cve_records_notify() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         PERFORM pg_notify('${CHANGE_CHANNEL}', NEW.seq::text);
         RETURN NULL;
       END $$;
       CREATE TRIGGER cve_catalog_changed AFTER INSERT OR UPDATE ON cve_catalog
         FOR EACH ROW EXECUTE FUNCTION cve_records_notify();`,
    sqlite: `ALTER TABLE cve_records ADD COLUMN changed text;
       ALTER TABLE cve_records ADD COLUMN seq integer NOT NULL DEFAULT 0;
       CREATE INDEX cve_records_seq ON cve_records (seq);
       CREATE INDEX cve_records_project ON cve_records (project);
       CREATE TABLE cve_removals (id text PRIMARY KEY, modified text NOT NULL, seq integer NOT NULL) WITHOUT ROWID;
       CREATE INDEX cve_removals_seq ON cve_removals (seq);
       CREATE TABLE cve_projects (name text PRIMARY KEY, aliases text NOT NULL, seq integer NOT NULL) WITHOUT ROWID;
       CREATE INDEX cve_projects_seq ON cve_projects (seq);
       ALTER TABLE cve_catalog ADD COLUMN seq integer NOT NULL DEFAULT 0;
       ALTER TABLE cve_catalog ADD COLUMN sync text;
       ALTER TABLE cve_catalog ADD COLUMN store_id text NOT NULL DEFAULT '';
       ALTER TABLE cve_catalog ADD COLUMN feed_end text;
       INSERT INTO cve_catalog (singleton, last_verified) VALUES (1, date('now')) ON CONFLICT DO NOTHING;
       UPDATE cve_catalog SET store_id = lower(hex(randomblob(16)));`,
  },
];
