// Import: CVE JSON 5 entries in, a catalog out, with every skipped entry counted by reason and every bad
// input named with its file. Never throws on bad data; the caller decides what a skip means (--strict).
import type { CatalogFile, CatalogRecord } from '../contract/index.js';
import { compareListingOrder } from '../core/cve-id.js';
import { type MapWarning, mapCveRecord } from './cve-json5.js';
import type { InputEntry } from './inputs.js';

export const SKIP_CATEGORIES = [
  // bad input: each one is reported with its file
  'unreadable-input',
  'unreadable-entry',
  'invalid-json',
  'invalid-format',
  'duplicate',
  'no-project-name',
  // selection: expected, counted only
  'rejected',
  'not-cleared',
  'other-assigner',
  'before-since',
] as const;
export type SkipCategory = (typeof SKIP_CATEGORIES)[number];
export const BAD_INPUT: ReadonlySet<SkipCategory> = new Set(SKIP_CATEGORIES.slice(0, 6));

export interface ImportOptions {
  readonly lastVerified: string;
  /** The operator's cleared ids, each with an optional project for records that are not public yet. */
  readonly cleared?: ReadonlyMap<string, string | undefined>;
  /** Only records of this CNA (cveMetadata.assignerShortName, case-insensitive). */
  readonly assigner?: string;
  /** Only records published on or after this date (YYYY-MM-DD). */
  readonly since?: string;
  /** Project names by CVE id, winning over the record's own. */
  readonly overrides?: ReadonlyMap<string, string>;
  readonly onEntry?: (read: number) => void;
}

export interface Problem {
  readonly category: SkipCategory;
  readonly source: string;
  readonly detail: string;
}

/** A field of an imported record that could not be used (the record is kept without it). */
export interface ImportWarning {
  readonly kind: MapWarning['kind'];
  readonly source: string;
  readonly detail: string;
}

export interface ImportResult {
  readonly catalog: CatalogFile;
  readonly read: number;
  readonly imported: number;
  readonly assigned: number;
  readonly skipped: Readonly<Record<SkipCategory, number>>;
  /** Every bad-input skip, with its source. */
  readonly problems: readonly Problem[];
  readonly warnings: readonly ImportWarning[];
}

export async function importRecords(entries: AsyncIterable<InputEntry>, options: ImportOptions): Promise<ImportResult> {
  const skipped = Object.fromEntries(SKIP_CATEGORIES.map((c) => [c, 0])) as Record<SkipCategory, number>;
  const problems: Problem[] = [];
  const warnings: ImportWarning[] = [];
  const skip = (category: SkipCategory, source: string, detail: string) => {
    skipped[category]++;
    if (BAD_INPUT.has(category)) problems.push({ category, source, detail });
  };
  const byId = new Map<string, CatalogRecord>();
  const seen = new Set<string>(); // ids with a record in the input, imported or not
  const assigner = options.assigner?.toLowerCase();
  let read = 0;

  for await (const entry of entries) {
    if ('inputError' in entry) {
      skip('unreadable-input', entry.name, entry.inputError);
      continue;
    }
    read++;
    options.onEntry?.(read);
    if ('error' in entry) {
      skip('unreadable-entry', entry.name, entry.error);
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(entry.text);
    } catch (err) {
      skip('invalid-json', entry.name, jsonProblem(err as Error));
      continue;
    }
    const meta = (json as { cveMetadata?: { cveId?: unknown; assignerShortName?: unknown } } | null)?.cveMetadata;
    const id = typeof meta?.cveId === 'string' ? meta.cveId : undefined;
    if (id !== undefined) seen.add(id);
    if (options.cleared && (id === undefined || !options.cleared.has(id))) {
      if (id === undefined) skip('invalid-format', entry.name, 'cveMetadata.cveId is missing');
      else skip('not-cleared', entry.name, id);
      continue;
    }
    if (assigner !== undefined && String(meta?.assignerShortName ?? '').toLowerCase() !== assigner) {
      skip('other-assigner', entry.name, String(meta?.assignerShortName));
      continue;
    }
    const result = mapCveRecord(json, options.overrides);
    if (!result.ok) {
      skip(result.reason, entry.name, result.detail);
      continue;
    }
    if (options.since !== undefined && (result.record.published ?? '') < options.since) {
      skip('before-since', entry.name, result.record.published ?? 'no datePublished');
      continue;
    }
    if (byId.has(result.record.id)) {
      skip('duplicate', entry.name, `${result.record.id} was already imported from another file`);
      continue;
    }
    byId.set(result.record.id, result.record);
    for (const warning of result.warnings) warnings.push({ ...warning, source: entry.name });
  }
  const imported = byId.size;

  // A cleared id with no record in the input is assigned but not public yet.
  let assigned = 0;
  for (const [id, listedProject] of options.cleared ?? []) {
    if (seen.has(id)) continue;
    const project = options.overrides?.get(id) ?? listedProject;
    if (project === undefined) {
      skip(
        'no-project-name',
        id,
        `${id} is cleared but has no published record, and neither the ids file nor the override map names its project`,
      );
      continue;
    }
    byId.set(id, { id, project, status: 'assigned-no-public-record', url: null });
    assigned++;
  }

  const records = [...byId.values()].sort((a, b) => compareListingOrder(a.id, b.id));
  return { catalog: { lastVerified: options.lastVerified, records }, read, imported, assigned, skipped, problems, warnings };
}

/**
 * What is wrong with text that is not JSON, without the excerpt of it that JSON.parse quotes: the text
 * may be a file that was never meant to be read (a link to /etc/passwd), and a report must not leak it.
 */
export function jsonProblem(error: Error): string {
  const position = /at position (\d+)/.exec(error.message)?.[1];
  if (position !== undefined) return `not valid JSON (at character ${position})`;
  return /end of (JSON )?input/i.test(error.message) ? 'not valid JSON (it ends too soon)' : 'not valid JSON';
}
