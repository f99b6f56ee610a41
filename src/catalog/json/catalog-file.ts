import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import type { CatalogFile } from '../../contract/index.js';
import { type CatalogProblem, findCatalogProblems } from '../catalog-validation.js';
import { parseCatalogBytes } from './catalog-text.js';

/** A catalog that cannot be served; the message names the file and every problem's location. */
export class CatalogError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly CatalogProblem[],
  ) {
    super(formatProblems(file, problems));
    this.name = 'CatalogError';
  }
}

const SHOWN_PROBLEMS = 20;

function formatProblems(file: string, problems: readonly CatalogProblem[]): string {
  const lines = problems.slice(0, SHOWN_PROBLEMS).map((p) => `  ${p.pointer}${p.id ? ` (${p.id})` : ''}: ${p.problem}`);
  const more = problems.length > SHOWN_PROBLEMS ? `\n  ... and ${problems.length - SHOWN_PROBLEMS} more` : '';
  return `${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n${lines.join('\n')}${more}`;
}

/** The file's JSON, not yet checked: a source hands it to loadSnapshot, which checks every catalog once. */
export async function readCatalogJson(file: string): Promise<unknown> {
  let bytes: Buffer;
  try {
    const stored = await readFile(file);
    // A catalog may be stored compressed (the embedded dataset is): `.gz` files are gunzipped first.
    bytes = file.endsWith('.gz') ? gunzipSync(stored) : stored;
  } catch (error) {
    throw new CatalogError(file, [{ pointer: '/', id: undefined, problem: `cannot read: ${(error as Error).message}` }]);
  }
  try {
    return parseCatalogBytes(bytes);
  } catch (error) {
    throw new CatalogError(file, [{ pointer: '/', id: undefined, problem: `not valid JSON: ${(error as Error).message}` }]);
  }
}

/** The file as a checked catalog, for callers that read one outside a source (tests, the benchmark). */
export async function readCatalogFile(file: string): Promise<CatalogFile> {
  const data = await readCatalogJson(file);
  const problems = findCatalogProblems(data);
  if (problems.length > 0) throw new CatalogError(file, problems);
  return data as CatalogFile;
}
