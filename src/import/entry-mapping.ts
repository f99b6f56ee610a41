// One input entry to its outcome: the mapped record, or the reason it is skipped. The same function runs
// in the importer's worker threads and, with no workers, in the importer itself.
import type { CatalogRecord } from '../contract/index.js';
import { detailsJson } from '../core/details-json.js';
import { detailFilters } from '../core/record-table.js';
import { type MapWarning, mapCveRecord } from './cve-json5.js';
import type { DetailsText } from './details-spool.js';
import type { InputEntry } from './inputs.js';
import type { ProjectName } from './project-naming.js';
import { ArchiveDamage, unpackText } from './zip-entries.js';

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

/** Which records an import keeps. Plain data, so it can be sent to a worker. */
export interface Selection {
  /** The operator's cleared ids: only these are imported. */
  readonly cleared?: readonly string[] | undefined;
  /** Only records of this CNA (cveMetadata.assignerShortName, lower case). */
  readonly assigner?: string | undefined;
  /** Only records published on or after this date (YYYY-MM-DD). */
  readonly since?: string | undefined;
  /** Project names by CVE id, winning over the record's own. */
  readonly overrides?: readonly (readonly [string, string])[] | undefined;
}

export type EntryOutcome =
  | {
      readonly kind: 'mapped';
      readonly source: string;
      readonly warnings: readonly MapWarning[];
      readonly record: Omit<CatalogRecord, 'details'>;
      readonly naming: ProjectName;
      /** As text and filter fields rather than objects: what the importer keeps of them (details-spool.ts). */
      readonly details: DetailsText | undefined;
    }
  | {
      readonly kind: 'skip';
      readonly source: string;
      readonly category: SkipCategory;
      readonly detail: string;
      readonly id?: string | undefined;
      /** When a rejected record was rejected. */
      readonly modified?: string | undefined;
    };

/** The mapping of one selection, its sets built once. */
export function entryMapper(selection: Selection): (entry: InputEntry) => EntryOutcome {
  const cleared = selection.cleared ? new Set(selection.cleared) : undefined;
  const overrides = new Map(selection.overrides ?? []);
  return (item) => {
    const source = item.name;
    if ('inputError' in item) return { kind: 'skip', source, category: 'unreadable-input', detail: item.inputError };
    if ('error' in item) return { kind: 'skip', source, category: 'unreadable-entry', detail: item.error };
    let text: string;
    try {
      text = unpackText(item.packed);
    } catch (error) {
      // Data that does not match the directory damns the archive, not one record (zip-entries.ts).
      const category = error instanceof ArchiveDamage ? 'unreadable-input' : 'unreadable-entry';
      return { kind: 'skip', source, category, detail: (error as Error).message };
    }
    let json: unknown;
    let mended = 0;
    try {
      ({ json, mended } = parseWellFormed(text));
    } catch (error) {
      return { kind: 'skip', source, category: 'invalid-json', detail: jsonProblem(error as Error) };
    }
    const meta = (json as { cveMetadata?: { cveId?: unknown; assignerShortName?: unknown } } | null)?.cveMetadata;
    const id = typeof meta?.cveId === 'string' ? meta.cveId : undefined;
    if (cleared && (id === undefined || !cleared.has(id))) {
      return id === undefined
        ? { kind: 'skip', source, category: 'invalid-format', detail: 'cveMetadata.cveId is missing' }
        : { kind: 'skip', source, category: 'not-cleared', detail: id, id };
    }
    if (selection.assigner !== undefined && String(meta?.assignerShortName ?? '').toLowerCase() !== selection.assigner) {
      return { kind: 'skip', source, category: 'other-assigner', detail: String(meta?.assignerShortName), id };
    }
    const result = mapCveRecord(json, overrides);
    if (!result.ok) return { kind: 'skip', source, category: result.reason, detail: result.detail, id, modified: result.modified };
    if (selection.since !== undefined && (result.record.published ?? '') < selection.since) {
      return { kind: 'skip', source, category: 'before-since', detail: result.record.published ?? 'no datePublished', id };
    }
    const { details, ...record } = result.record;
    const illFormed: MapWarning[] =
      mended === 0
        ? []
        : [
            {
              kind: 'ill-formed-text',
              detail: `${record.id}: ${mended} text${mended === 1 ? '' : 's'} held a lone surrogate (half of a UTF-16 pair), each replaced by U+FFFD`,
            },
          ];
    return {
      kind: 'mapped',
      source,
      record,
      naming: result.naming,
      warnings: [...illFormed, ...result.warnings],
      details: details === undefined ? undefined : { json: detailsJson(details), filters: detailFilters(details) },
    };
  };
}

/** Valid UTF-8 decodes to well-formed text: a lone surrogate can only come from a JSON escape. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * The JSON value of the text, every string in it well-formed: a lone surrogate (`"\ud800"`, half of a
 * UTF-16 pair, which JSON may write) is replaced by U+FFFD, as a UTF-8 decoder replaces bytes it cannot
 * read, and counted. Such a string cannot be put in a URL (encodeURIComponent throws) nor written as
 * UTF-8, so it must not reach a catalog; the rest of the record is worth keeping. Text without such an
 * escape, nearly all of it, is parsed as it is.
 */
function parseWellFormed(text: string): { json: unknown; mended: number } {
  if (!SURROGATE_ESCAPE.test(text)) return { json: JSON.parse(text), mended: 0 };
  let mended = 0;
  const json = JSON.parse(text, (_key, value: unknown) => {
    if (typeof value !== 'string' || value.isWellFormed()) return value;
    mended++;
    return value.toWellFormed();
  });
  return { json, mended };
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
