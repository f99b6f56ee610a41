// `cve-records import <path>...`: CVE JSON 5 records from directories, files and zips into a catalog
// file and/or PostgreSQL, with a progress line on a terminal and a summary of what was read, imported
// and skipped, by reason. Every bad input is listed with its file.
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { parseAliasTable } from '../import/canonical-projects.js';
import { formatOf, writeCatalogFile } from '../import/catalog-writer.js';
import { IdListError, parseIdList } from '../import/id-list.js';
import { BAD_INPUT, type ImportResult, importRecords, SKIP_CATEGORIES } from '../import/importer.js';
import { readInputs } from '../import/inputs.js';
import { NAMING_STEPS } from '../import/project-naming.js';
import { findCatalogProblems } from '../sources/catalog-validation.js';
import { upsertCatalog } from '../sources/postgres/database.js';
import { databaseUrl, UsageError } from './serve-options.js';

export const IMPORT_HELP = `Usage: cve-records import <path>... [options]

Reads CVE JSON 5.x records from directory trees (cvelistV5 checkouts), .json files and .zip archives
(release zips, nested zips included) and writes a catalog. Every published record is imported: its
project is named by a cascade (CNA product, CNA vendor, ADP product, repository, description) and
canonicalised (one name per project; see docs/OPERATIONS.md, "Project names").

Options:
  --out FILE             catalog to write, by its name: FILE.json, FILE.json.gz, or FILE.snapshot (what the
                         server starts fastest on); repeat for several (default cve-records.json; with
                         --to-database, only when given)
  --last-verified DATE   the catalog's lastVerified (default: today, UTC)
  --ids FILE             the cleared ids, one "CVE-ID[<TAB>project]" per line: only these are imported, and a
                         listed id without a published record becomes assigned-no-public-record
  --assigner NAME        only records of this CNA (cveMetadata.assignerShortName)
  --since DATE           only records published on or after DATE
  --overrides FILE       project names, one "CVE-ID<TAB>project" per line, winning over the records' own
  --project-aliases FILE curated project spellings (default: the data/project-aliases.tsv shipped with the service)
  --workers N            threads that parse and map records (default: one per core)
  --strict               write nothing and exit 1 when any input was bad (unreadable, invalid, duplicate, unnamed)
  --to-database          upsert into PostgreSQL (--database-url or CVE_RECORDS_DATABASE_URL) in one transaction
  --database-url URL     PostgreSQL to import into
  --help                 show this help
`;

/**
 * An import holds every mapped record (about 400 MB at 340,000) while it builds the search index, and
 * V8's default heap growth (large steps while the heap grows fast) then takes the process past 1 GB.
 * Growing the heap by 30% at a time keeps the corpus's import near 950 MB for about 10% more time in GC
 * (docs/PERFORMANCE.md). The process only imports, so the setting touches nothing else; V8 reads it at
 * each collection, which is why setting it after start works.
 */
const IMPORT_HEAP_GROWTH = '--heap-growing-percent=30';

export async function runImport(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  v8.setFlagsFromString(IMPORT_HEAP_GROWTH);
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      out: { type: 'string', multiple: true },
      'project-aliases': { type: 'string' },
      workers: { type: 'string' },
      'last-verified': { type: 'string' },
      ids: { type: 'string' },
      assigner: { type: 'string' },
      since: { type: 'string' },
      overrides: { type: 'string' },
      strict: { type: 'boolean' },
      'to-database': { type: 'boolean' },
      'database-url': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(IMPORT_HELP);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('name at least one directory, .json file or .zip archive to import');
  const lastVerified = isoDate('last-verified', values['last-verified']) ?? new Date().toISOString().slice(0, 10);
  const since = isoDate('since', values.since);
  const database = values['to-database'] ? databaseUrl(values['database-url'] ?? env.CVE_RECORDS_DATABASE_URL) : undefined;
  if (values['to-database'] && !database) throw new UsageError('--to-database needs --database-url or CVE_RECORDS_DATABASE_URL');

  const outs = values.out ?? (database ? [] : ['cve-records.json']);
  for (const out of outs) if (!formatOf(out)) throw new UsageError(`--out ${out}: name a .json, .json.gz or .snapshot file`);
  const workers = values.workers === undefined ? availableParallelism() : Number(values.workers);
  if (!Number.isInteger(workers) || workers < 0 || workers > 64)
    throw new UsageError(`--workers: expected 0 to 64, got "${values.workers}"`);
  const aliases = parseAliasTable(await readText(values['project-aliases'] ?? DEFAULT_PROJECT_ALIASES));
  const cleared = values.ids ? await idList(values.ids, false) : undefined;
  const overrides = values.overrides ? await idList(values.overrides, true) : undefined;
  const progress = progressLine();
  const result = await importRecords(readInputs(positionals), {
    lastVerified,
    ...(cleared ? { cleared } : {}),
    ...(values.assigner ? { assigner: values.assigner } : {}),
    ...(since ? { since } : {}),
    ...(overrides ? { overrides: overrides as Map<string, string> } : {}),
    aliases,
    workers,
    onEntry: progress.update,
  });
  progress.done(result.read);

  const invalid = findCatalogProblems(result.catalog);
  if (invalid.length > 0) {
    // The mapping should make this impossible; refusing to write is better than a catalog the server refuses.
    process.stderr.write(
      `cve-records import: the imported catalog is invalid, nothing written:\n${invalid.map((p) => `  ${p.pointer}: ${p.problem}`).join('\n')}\n`,
    );
    return 1;
  }
  const bad = result.problems.length;
  if (result.read === 0 && result.skipped['unreadable-input'] > 0) {
    // Not one input could be read: an empty catalog written now would empty the service.
    process.stdout.write(summary(result, ['nothing (no input could be read)']));
    return 1;
  }
  if (values.strict && bad > 0) {
    // --strict promises a catalog only from clean input: the old catalog (and a server watching it) stays.
    process.stdout.write(summary(result, ['nothing (--strict, and some input was bad)']));
    return 1;
  }
  const written: string[] = [];
  for (const out of outs) {
    const bytes = await writeCatalogFile(out, result.catalog);
    written.push(`${out} (${bytes} bytes)`);
  }
  if (database) {
    await upsertCatalog(database, result.catalog);
    written.push('PostgreSQL (one transaction)');
  }
  process.stdout.write(summary(result, written));
  return 0;
}

function summary(result: ImportResult, written: string[]): string {
  const skippedTotal = SKIP_CATEGORIES.reduce((sum, c) => sum + result.skipped[c], 0);
  const statuses = { public: 0, 'assigned-no-public-record': 0 };
  for (const record of result.catalog.records) statuses[record.status]++;
  const lines = [
    `read:      ${result.read} entries`,
    `imported:  ${result.imported} published records`,
    `assigned:  ${result.assigned} cleared ids without a published record`,
    `named by:  ${NAMING_STEPS.filter((step) => result.namedBy[step] > 0)
      .map((step) => `${step} ${result.namedBy[step]}`)
      .join(', ')}`,
    `projects:  ${new Set(result.catalog.records.map((record) => record.project)).size} (${result.catalog.projects?.length ?? 0} with other spellings)`,
    `skipped:   ${skippedTotal}`,
    ...SKIP_CATEGORIES.filter((c) => result.skipped[c] > 0).map(
      (c) => `  ${c.padEnd(18)} ${result.skipped[c]}${BAD_INPUT.has(c) ? ' (bad input, listed on stderr)' : ''}`,
    ),
    ...(result.warnings.length > 0 ? [`warnings:  ${result.warnings.length} fields left out (listed on stderr)`] : []),
    `catalog:   ${result.catalog.records.length} records (public ${statuses.public}, assigned-no-public-record ${statuses['assigned-no-public-record']}), lastVerified ${result.catalog.lastVerified}`,
    `written:   ${written.join(', ')}`,
  ];
  for (const problem of result.problems) process.stderr.write(`${problem.source}: ${problem.category}: ${problem.detail}\n`);
  for (const warning of result.warnings) process.stderr.write(`${warning.source}: ${warning.kind}: ${warning.detail}\n`);
  return `${lines.join('\n')}\n`;
}

/** A single updating line on a terminal; nothing when stderr is a file or a pipe. */
function progressLine(): { update: (read: number) => void; done: (read: number) => void } {
  if (!process.stderr.isTTY) return { update: () => {}, done: () => {} };
  let last = 0;
  const draw = (read: number) => process.stderr.write(`\rreading CVE records: ${read.toLocaleString('en')} entries`);
  return {
    update: (read) => {
      if (read - last >= 500) {
        last = read;
        draw(read);
      }
    },
    done: (read) => {
      draw(read);
      process.stderr.write('\n');
    },
  };
}

/** The curated project spellings shipped with the service. */
const DEFAULT_PROJECT_ALIASES = fileURLToPath(new URL('../../data/project-aliases.tsv', import.meta.url));

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

async function idList(file: string, projectRequired: boolean): Promise<Map<string, string | undefined>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return parseIdList(text, file, { projectRequired });
  } catch (error) {
    if (error instanceof IdListError) throw new UsageError(error.message);
    throw error;
  }
}

function isoDate(name: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(text)))
    throw new UsageError(`--${name}: expected a date YYYY-MM-DD, got "${text}"`);
  return text;
}
