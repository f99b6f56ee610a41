// `cve-records import <path>...`: CVE JSON 5 records from directories, files and zips into a catalog
// file and/or PostgreSQL, with a progress line on a terminal and a summary of what was read, imported
// and skipped, by reason. Every bad input is listed with its file.
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { findCatalogProblems } from '../catalog/catalog-validation.js';
import { writeCatalogFile } from '../catalog/json/catalog-writer.js';
import { migrate } from '../catalog/postgres/database.js';
import { postgresStore } from '../catalog/postgres/postgres-store.js';
import { isStorePath, openSqliteStore } from '../catalog/sqlite/sqlite-store.js';
import { writeCatalogToStore } from '../catalog/store/catalog-store.js';
import { BAD_INPUT, type ImportResult, importRecords, SKIP_CATEGORIES } from '../import/importer.js';
import { readInputs } from '../import/inputs.js';
import { NAMING_STEPS } from '../import/project-naming.js';
import { readTargets, TARGET_OPTIONS } from './catalog-targets.js';
import { isoDate, readSelection, SELECTION_HELP, SELECTION_OPTIONS } from './selection-options.js';
import { UsageError } from './serve-options.js';

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
${SELECTION_HELP}
                         (a listed id without a published record becomes assigned-no-public-record)
  --since DATE           only records published on or after DATE
  --strict               write nothing and exit 1 when any input was bad (unreadable, invalid, duplicate, unnamed)
  --to-database          upsert into PostgreSQL (--database-url or CVE_RECORDS_DATABASE_URL) in one transaction
  --database-url URL     PostgreSQL to import into
  --help                 show this help
`;

/**
 * An import holds every mapped record's short fields and summary (its details wait in a temporary file)
 * while it builds the search index, and V8's default heap growth (large steps while the heap grows fast)
 * adds hundreds of megabytes on top. Growing the heap by 30% at a time costs about 10% more time in GC
 * (docs/PERFORMANCE.md); with the program's 8 MB semi-space the corpus's import peaks at about 1 GB. The
 * process only imports, so the setting touches nothing else; V8 reads it at each collection, which is why
 * setting it after start works.
 */
const IMPORT_HEAP_GROWTH = '--heap-growing-percent=30';

export async function runImport(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  v8.setFlagsFromString(IMPORT_HEAP_GROWTH);
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      ...SELECTION_OPTIONS,
      ...TARGET_OPTIONS,
      'last-verified': { type: 'string' },
      since: { type: 'string' },
      strict: { type: 'boolean' },
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
  const { outs: named, database } = readTargets(values, env);

  const outs = named ?? (database ? [] : ['cve-records.json']);
  const selection = await readSelection(values);
  const progress = progressLine();
  const result = await importRecords(readInputs(positionals), {
    ...selection,
    lastVerified,
    ...(since ? { since } : {}),
    onEntry: progress.update,
  });
  progress.done(result.read);

  try {
    return await writeImport(result, outs, database, values.strict === true);
  } finally {
    result.details.close();
  }
}

/** Checks the imported catalog and writes it to every target; returns the exit code. */
async function writeImport(result: ImportResult, outs: readonly string[], database: string | undefined, strict: boolean): Promise<number> {
  const invalid = findCatalogProblems(result.catalog, result.details);
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
  if (strict && bad > 0) {
    // --strict promises a catalog only from clean input: the old catalog (and a server watching it) stays.
    process.stdout.write(summary(result, ['nothing (--strict, and some input was bad)']));
    return 1;
  }
  const written: string[] = [];
  for (const out of outs) {
    if (isStorePath(out)) {
      // Into a store of record, in one step (created when missing): a server on it applies the step live.
      const store = openSqliteStore(out);
      try {
        const sequence = await writeCatalogToStore(store, result.catalog, result.details, result.groups);
        written.push(`${out} (store of record, sequence ${sequence})`);
      } finally {
        await store.close();
      }
      continue;
    }
    const bytes = await writeCatalogFile(out, result.catalog, { details: result.details });
    written.push(`${out} (${bytes} bytes)`);
  }
  if (database) {
    await migrate(database);
    await writeCatalogToStore(postgresStore(database), result.catalog, result.details, result.groups);
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
