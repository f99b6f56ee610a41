import { CatalogFile, CatalogRecord, createValidator } from '../contract/index.js';
import type { CatalogDetails } from '../core/catalog-details.js';

export interface CatalogProblem {
  /** JSON Pointer into the catalog, e.g. `/records/12/url`. */
  readonly pointer: string;
  readonly id: string | undefined;
  readonly problem: string;
}

const ajv = createValidator('data');
const checkRecord = ajv.compile(CatalogRecord);
const checkTop = ajv.compile({ ...CatalogFile, properties: { ...CatalogFile.properties, records: { type: 'array' } } });

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
  return id;
}

function describe(e: { keyword: string; message?: string | undefined; params: Record<string, unknown> }): string {
  if (e.keyword === 'additionalProperties') return `unknown property "${String(e.params.additionalProperty)}"`;
  if (e.keyword === 'enum') return `${e.message}: ${JSON.stringify(e.params.allowedValues)}`;
  return e.message ?? e.keyword;
}
