// The PostgreSQL schema of the shared record source, as ordered migrations. Applied by
// `cve-records db migrate`; documented in docs/OPERATIONS.md. A statement-level trigger notifies
// every listening replica after any change, so a whole import is one notification at commit.
export const CHANGE_CHANNEL = 'cve_records_changed';

export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE cve_records (
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
  // Product names in real CVE records run to 474 characters: a project only has to be non-empty.
  `ALTER TABLE cve_records DROP CONSTRAINT cve_records_project_check,
     ADD CONSTRAINT cve_records_project_check CHECK (char_length(project) >= 1);`,
  // When each record last changed upstream (cveMetadata.dateUpdated), for change feeds.
  `ALTER TABLE cve_records ADD COLUMN modified timestamptz;`,
  // What each record's CVE JSON 5 record says (RecordDetails), served by the details operations.
  `ALTER TABLE cve_records ADD COLUMN details jsonb;`,
];
