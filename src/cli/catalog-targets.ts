// Where `import` and `sync` write a catalog: files named by format (--out) and PostgreSQL (--to-database),
// read and checked the same way by both.
import { formatOf } from '../catalog/json/catalog-writer.js';
import { isStorePath } from '../catalog/sqlite/sqlite-store.js';
import { databaseUrl, UsageError } from './serve-options.js';

export const TARGET_OPTIONS = {
  out: { type: 'string', multiple: true },
  'to-database': { type: 'boolean' },
  'database-url': { type: 'string' },
} as const;

export interface CatalogTargets {
  /** The --out files, each of a known format; undefined when none was named. */
  readonly outs: readonly string[] | undefined;
  /** PostgreSQL's URL with --to-database. */
  readonly database: string | undefined;
}

export function readTargets(
  values: { out?: string[] | undefined; 'to-database'?: boolean | undefined; 'database-url'?: string | undefined },
  env: NodeJS.ProcessEnv,
): CatalogTargets {
  for (const out of values.out ?? [])
    if (!formatOf(out) && !isStorePath(out)) throw new UsageError(`--out ${out}: name a .json, .json.gz or .snapshot file, or a .db store`);
  const database = values['to-database'] ? databaseUrl(values['database-url'] ?? env.CVE_RECORDS_DATABASE_URL) : undefined;
  if (values['to-database'] && !database) throw new UsageError('--to-database needs --database-url or CVE_RECORDS_DATABASE_URL');
  return { outs: values.out, database };
}
