// `cve-records validate FILE` and `cve-records db migrate`.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { findCatalogProblems } from '../catalog/catalog-validation.js';
import { migrate } from '../catalog/postgres/database.js';
import { databaseUrl, UsageError } from './serve-options.js';

export const VALIDATE_HELP = `Usage: cve-records validate FILE

Checks a catalog file and prints every problem with its location (JSON Pointer and record id).
Exit code 0 when it is valid, 1 when it is not.
`;

export async function runValidate(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, strict: true, options: { help: { type: 'boolean' } } });
  if (values.help) {
    process.stdout.write(VALIDATE_HELP);
    return 0;
  }
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0) throw new UsageError('name exactly one catalog file');
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    process.stdout.write(`${file}: ${(error as Error).message}\n`);
    return 1;
  }
  const problems = findCatalogProblems(data);
  for (const p of problems) process.stdout.write(`${file}: ${p.pointer}${p.id ? ` (${p.id})` : ''}: ${p.problem}\n`);
  const count = (data as { records?: unknown[] }).records?.length ?? 0;
  process.stdout.write(
    problems.length === 0
      ? `${file}: valid, ${count} records\n`
      : `${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n`,
  );
  return problems.length === 0 ? 0 : 1;
}

export const DB_HELP = `Usage: cve-records db migrate [--database-url URL]

Creates or upgrades the PostgreSQL schema of the shared record source (tables cve_records and
cve_catalog, and the trigger that notifies replicas). Safe to run again and from several places at once.
`;

export async function runDb(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { 'database-url': { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help || positionals[0] !== 'migrate') {
    process.stdout.write(DB_HELP);
    return values.help ? 0 : 2;
  }
  const url = databaseUrl(values['database-url'] ?? env.CVE_RECORDS_DATABASE_URL);
  if (!url) throw new UsageError('--database-url or CVE_RECORDS_DATABASE_URL is needed');
  const applied = await migrate(url);
  process.stdout.write(applied === 0 ? 'schema is up to date\n' : `applied ${applied} migration${applied === 1 ? '' : 's'}\n`);
  return 0;
}
