// The options `import` and `sync` share: which records to keep (cleared ids, CNA, project overrides), the
// curated project spellings, and the mapping threads. Read the same way by both, so a sync keeps exactly
// what an import of the same upstream would.
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseAliasTable } from '../import/canonical-projects.js';
import { IdListError, parseIdList } from '../import/id-list.js';
import type { ImportOptions } from '../import/importer.js';
import { UsageError } from './serve-options.js';

export const SELECTION_OPTIONS = {
  ids: { type: 'string' },
  assigner: { type: 'string' },
  overrides: { type: 'string' },
  'project-aliases': { type: 'string' },
  workers: { type: 'string' },
} as const;

export const SELECTION_HELP = `  --ids FILE             the cleared ids, one "CVE-ID[<TAB>project]" per line: only these are kept
  --assigner NAME        only records of this CNA (cveMetadata.assignerShortName)
  --overrides FILE       project names, one "CVE-ID<TAB>project" per line, winning over the records' own
  --project-aliases FILE curated project spellings (default: the data/project-aliases.tsv shipped with the service)
  --workers N            threads that parse and map records (default: one per core)`;

export type Selection = Pick<ImportOptions, 'cleared' | 'assigner' | 'overrides' | 'aliases' | 'workers'>;

export async function readSelection(values: {
  ids?: string | undefined;
  assigner?: string | undefined;
  overrides?: string | undefined;
  'project-aliases'?: string | undefined;
  workers?: string | undefined;
}): Promise<Selection> {
  const workers = values.workers === undefined ? availableParallelism() : Number(values.workers);
  if (!Number.isInteger(workers) || workers < 0 || workers > 64)
    throw new UsageError(`--workers: expected 0 to 64, got "${values.workers}"`);
  const cleared = values.ids ? await idList(values.ids, false) : undefined;
  const overrides = values.overrides ? await idList(values.overrides, true) : undefined;
  return {
    aliases: parseAliasTable(await readText(values['project-aliases'] ?? DEFAULT_PROJECT_ALIASES)),
    workers,
    ...(cleared ? { cleared } : {}),
    ...(values.assigner ? { assigner: values.assigner } : {}),
    ...(overrides ? { overrides: overrides as Map<string, string> } : {}),
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
  const text = await readText(file);
  try {
    return parseIdList(text, file, { projectRequired });
  } catch (error) {
    if (error instanceof IdListError) throw new UsageError(error.message);
    throw error;
  }
}

export function isoDate(name: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(text)))
    throw new UsageError(`--${name}: expected a date YYYY-MM-DD, got "${text}"`);
  return text;
}
