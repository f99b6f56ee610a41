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
  {
    // Each record's facts, worked out and checked by the writer (row-facts.ts): the filter columns and the
    // content hash, so a server starts from narrow rows without parsing or checking the details. Rows of
    // an older store have none until rewritten (a server checks those as it reads them). A row changed by
    // another program that leaves the hash as it was loses its facts, so that it is checked again. On
    // SQLite, where a server reads the texts from the rows on demand, the narrow columns are also an index
    // that a start scans (about 100 bytes a record) instead of the table (the rows' gigabyte of details),
    // led by seq so that the rows past a sequence are a range of it.
    postgres: `ALTER TABLE cve_records ADD COLUMN severity smallint, ADD COLUMN kev smallint, ADD COLUMN cwes text,
         ADD COLUMN content_hash text;
       CREATE FUNCTION cve_records_facts() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF NEW.content_hash IS NOT DISTINCT FROM OLD.content_hash
            AND (NEW.project, NEW.status, NEW.url, NEW.summary, NEW.published, NEW.modified, NEW.changed, NEW.details)
              IS DISTINCT FROM (OLD.project, OLD.status, OLD.url, OLD.summary, OLD.published, OLD.modified, OLD.changed, OLD.details) THEN
           NEW.content_hash := NULL;
         END IF;
         RETURN NEW;
       END $$;
       CREATE TRIGGER cve_records_facts BEFORE UPDATE ON cve_records FOR EACH ROW EXECUTE FUNCTION cve_records_facts();`,
    sqlite: `ALTER TABLE cve_records ADD COLUMN severity integer;
       ALTER TABLE cve_records ADD COLUMN kev integer;
       ALTER TABLE cve_records ADD COLUMN cwes text;
       ALTER TABLE cve_records ADD COLUMN content_hash text;
       CREATE TRIGGER cve_records_facts AFTER UPDATE ON cve_records
         WHEN NEW.content_hash IS OLD.content_hash
           AND (NEW.project IS NOT OLD.project OR NEW.status IS NOT OLD.status OR NEW.url IS NOT OLD.url
             OR NEW.summary IS NOT OLD.summary OR NEW.published IS NOT OLD.published OR NEW.modified IS NOT OLD.modified
             OR NEW.changed IS NOT OLD.changed OR NEW.details IS NOT OLD.details)
       BEGIN UPDATE cve_records SET content_hash = NULL WHERE rowid = NEW.rowid; END;
       CREATE INDEX cve_records_narrow ON cve_records (seq, id, project, status, url, published, modified, changed, severity, kev, cwes,
         content_hash);
       CREATE INDEX cve_records_unchecked ON cve_records (id) WHERE content_hash IS NULL;`,
  },
  {
    // The project each vendor's group of spellings was named (`productKey@vendorKey`), written by sync: a
    // delta's record joins the project of its vendor's group, as an import of every record would name it,
    // not a project that merely shares a spelling (Devolutions' "Server" is not MongoDB's). Servers never
    // read it.
    postgres: 'CREATE TABLE cve_project_groups (key text PRIMARY KEY, project text NOT NULL);',
    sqlite: 'CREATE TABLE cve_project_groups (key text PRIMARY KEY, project text NOT NULL) WITHOUT ROWID;',
  },
  {
    // What a delta's spellings are looked up by, searched rather than read whole at every step (the whole
    // read cost a 500-record delta at 340,000 records 110 ms of its 600: docs/PERFORMANCE.md, "The sync
    // step, stop 37"): the compact key of each project name records use (core/compact-key.ts, written by
    // the writers, which also fill it for the rows already held: project-names.ts), and each group's
    // product key alone and after its vendor's key (a key holds one `@`: both parts are compact keys).
    postgres: `CREATE TABLE cve_project_names (project text PRIMARY KEY, key text NOT NULL);
       CREATE INDEX cve_project_names_key ON cve_project_names (key);
       ALTER TABLE cve_project_groups ADD COLUMN product text GENERATED ALWAYS AS (split_part(key, '@', 1)) STORED,
         ADD COLUMN vendor_product text GENERATED ALWAYS AS (split_part(key, '@', 2) || split_part(key, '@', 1)) STORED;
       CREATE INDEX cve_project_groups_product ON cve_project_groups (product);
       CREATE INDEX cve_project_groups_vendor_product ON cve_project_groups (vendor_product);`,
    sqlite: `CREATE TABLE cve_project_names (project text PRIMARY KEY, key text NOT NULL) WITHOUT ROWID;
       CREATE INDEX cve_project_names_key ON cve_project_names (key);
       ALTER TABLE cve_project_groups ADD COLUMN product text GENERATED ALWAYS AS (substr(key, 1, instr(key, '@') - 1)) VIRTUAL;
       ALTER TABLE cve_project_groups ADD COLUMN vendor_product text
         GENERATED ALWAYS AS (substr(key, instr(key, '@') + 1) || substr(key, 1, instr(key, '@') - 1)) VIRTUAL;
       CREATE INDEX cve_project_groups_product ON cve_project_groups (product);
       CREATE INDEX cve_project_groups_vendor_product ON cve_project_groups (vendor_product);`,
  },
];
