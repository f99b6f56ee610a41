import type { ValidateFunction } from 'ajv/dist/2020.js';
import * as checks from '../contract/catalog-checks.generated.js';
import type { CatalogDetails } from '../core/catalog-details.js';

export interface CatalogProblem {
  /** JSON Pointer into the catalog, e.g. `/records/12/url`. */
  readonly pointer: string;
  readonly id: string | undefined;
  readonly problem: string;
}

// Compiled when the service is built (CATALOG_CHECKS, contract/records.ts), not when first needed: a sync
// step's first row paid tens of milliseconds compiling the record's schema (docs/PERFORMANCE.md, "The sync
// step and the start, stop 38").
const checkRecord = checks.catalogRecord as ValidateFunction;
const checkTop = checks.catalogTop as ValidateFunction;

/**
 * Every problem of a parsed catalog, each with its location; an empty list means it is valid. `details`:
 * the records' details when they are kept apart from the records (an import's), each read back and
 * checked as part of its record.
 */
export function findCatalogProblems(data: unknown, details?: CatalogDetails): CatalogProblem[] {
  const problems: CatalogProblem[] = [];
  if (!checkTop(data)) {
    for (const e of checkTop.errors ?? []) problems.push({ pointer: e.instancePath || '/', id: undefined, problem: describe(e) });
    return problems;
  }
  const records = (data as { records: unknown[] }).records;
  const seen = new Map<string, number>();
  records.forEach((record, index) => {
    const text = details?.text(index);
    const whole = text === undefined ? record : { ...(record as object), details: JSON.parse(text) as unknown };
    const id = recordProblems(whole, `/records/${index}`, problems);
    if (id !== undefined) {
      const first = seen.get(id);
      if (first !== undefined) problems.push({ pointer: `/records/${index}/id`, id, problem: `duplicate of /records/${first}` });
      else seen.set(id, index);
    }
  });
  return problems;
}

/** Adds the problems of one record, located under `pointer`, to `problems`; returns the record's id when it has one. */
export function recordProblems(record: unknown, pointer: string, problems: CatalogProblem[]): string | undefined {
  const id = typeof (record as { id?: unknown })?.id === 'string' ? (record as { id: string }).id : undefined;
  if (!checkRecord(record)) {
    for (const e of checkRecord.errors ?? []) problems.push({ pointer: `${pointer}${e.instancePath}`, id, problem: describe(e) });
  }
  const illFormed = illFormedPath(record);
  if (illFormed !== undefined) problems.push({ pointer: [pointer, ...illFormed].join('/'), id, problem: ILL_FORMED });
  return id;
}

const ILL_FORMED = 'holds a lone surrogate (half of a UTF-16 pair): not well-formed text';

/**
 * The keys down to the first string that is not well-formed Unicode, if any: a lone surrogate cannot be
 * written as UTF-8 or put in a URL (encodeURIComponent throws), so a record holding one would fail every
 * answer that links it. JSON Schema cannot say this of a string; the importer never writes one
 * (entry-mapping.ts). The path is made only when one is found: the walk itself allocates nothing.
 */
function illFormedPath(value: unknown): string[] | undefined {
  if (typeof value === 'string') return value.isWellFormed() ? undefined : [];
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const path = illFormedPath(value[index]);
      if (path !== undefined) return [String(index), ...path];
    }
    return undefined;
  }
  for (const key in value) {
    const path = illFormedPath((value as Record<string, unknown>)[key]);
    if (path !== undefined) return [key, ...path];
  }
  return undefined;
}

function describe(e: { keyword: string; message?: string | undefined; params: Record<string, unknown> }): string {
  if (e.keyword === 'additionalProperties') return `unknown property "${String(e.params.additionalProperty)}"`;
  if (e.keyword === 'enum') return `${e.message}: ${JSON.stringify(e.params.allowedValues)}`;
  return e.message ?? e.keyword;
}
