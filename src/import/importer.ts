// Import: CVE JSON 5 entries in, a catalog out, with every skipped entry counted by reason, every bad
// input named with its file, and every project named (how, counted by step) and canonicalised. Entries
// are read one at a time and mapped in batches, by worker threads when there are workers, so no more
// than a few batches of raw records are ever in memory, and each record's details, which the workers send
// as text, go to a temporary file (details-spool.ts) until the writers read them back. Never throws on bad
// data; the caller decides what a skip means (--strict).
import type { CatalogFile, CatalogRecord, RecordDetails } from '../contract/index.js';
import type { CatalogDetails } from '../core/catalog-details.js';
import { CVE_RECORD_URL_PREFIX, compareListingOrder } from '../core/cve-id.js';
import { type AliasTable, aliasKeysOf, canonicalProjects, type NameOccurrence } from './canonical-projects.js';
import type { MapWarning } from './cve-json5.js';
import { DetailsSpool } from './details-spool.js';
import { BAD_INPUT, type EntryOutcome, SKIP_CATEGORIES, type SkipCategory } from './entry-mapping.js';
import type { InputEntry } from './inputs.js';
import { mappingPool } from './mapping-pool.js';
import { NAMING_STEPS, type NamingStep } from './project-naming.js';

export { BAD_INPUT, SKIP_CATEGORIES, type SkipCategory } from './entry-mapping.js';

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
  /**
   * Whether a cleared id with no record in the input becomes an assigned-no-public-record record (true, the
   * default: an import reads the whole list). A sync reads only what changed, so it leaves such ids be.
   */
  readonly listUnpublished?: boolean;
  /** Curated project spellings (data/project-aliases.tsv). */
  readonly aliases?: AliasTable;
  /**
   * Instead of `aliases`: the table for the keys the records' spellings are looked up by (aliasKeys), asked
   * once they are all read. A sync's delta asks the store for those names alone, never all it holds.
   */
  readonly aliasesFor?: (keys: ReadonlySet<string>) => Promise<AliasTable>;
  /** Worker threads that parse and map; 0 maps in this thread. */
  readonly workers?: number;
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
  /** The catalog, its records in listing order and without their details, which `details` holds. */
  readonly catalog: CatalogFile;
  /** The records' details, by index in catalog.records, kept in a temporary file until closed. */
  readonly details: ImportedDetails;
  readonly read: number;
  readonly imported: number;
  readonly assigned: number;
  readonly skipped: Readonly<Record<SkipCategory, number>>;
  /** Published records by the step of the naming cascade that named their project. */
  readonly namedBy: Readonly<Record<NamingStep, number>>;
  /** Every bad-input skip, with its source. */
  readonly problems: readonly Problem[];
  readonly warnings: readonly ImportWarning[];
  /** Ids of the selection whose record is REJECTED, with when (undefined when the record does not say). */
  readonly rejected: ReadonlyMap<string, string | undefined>;
  /** The project each vendor's group of spellings was named (CanonicalNames.groups), for later deltas. */
  readonly groups: ReadonlyMap<string, string>;
}

export interface ImportedDetails extends CatalogDetails {
  /** Frees the file now (it is freed anyway once nothing can read it). */
  close(): void;
}

/** Entries per batch handed to a worker: enough to amortise the message, few enough to stay small. */
const BATCH = 128;

export async function importRecords(entries: AsyncIterable<InputEntry>, options: ImportOptions): Promise<ImportResult> {
  const skipped = Object.fromEntries(SKIP_CATEGORIES.map((c) => [c, 0])) as Record<SkipCategory, number>;
  const namedBy = Object.fromEntries(NAMING_STEPS.map((step) => [step, 0])) as Record<NamingStep, number>;
  const problems: Problem[] = [];
  const warnings: ImportWarning[] = [];
  const skip = (category: SkipCategory, source: string, detail: string) => {
    skipped[category]++;
    if (BAD_INPUT.has(category)) problems.push({ category, source, detail });
  };
  // Every imported record and the name occurrence it was given, at the same place. Kept compact: at
  // 340,000 records each byte per record is a third of a megabyte.
  const importedIds = new Set<string>();
  const records: CatalogRecord[] = [];
  const occurrences: NameOccurrence[] = [];
  // Their details, in the same order.
  const details = new DetailsSpool();
  // Ids with a record in the input, imported or not: what tells a cleared id that is not public yet.
  const seen = new Set<string>();
  const noteSeen = options.cleared ? (id: string) => seen.add(id) : () => {};
  const strings = new Map<string, string>();
  const intern = (text: string): string => {
    const known = strings.get(text);
    if (known !== undefined) return known;
    strings.set(text, text);
    return text;
  };
  let read = 0;

  const pool = mappingPool(
    {
      cleared: options.cleared ? [...options.cleared.keys()] : undefined,
      assigner: options.assigner?.toLowerCase(),
      since: options.since,
      overrides: options.overrides ? [...options.overrides] : undefined,
    },
    options.workers ?? 0,
  );
  const rejected = new Map<string, string | undefined>();
  const take = (outcome: EntryOutcome) => {
    if (outcome.kind === 'skip') {
      if (outcome.id !== undefined) noteSeen(outcome.id);
      if (outcome.category === 'rejected' && outcome.id !== undefined) rejected.set(outcome.id, outcome.modified);
      skip(outcome.category, outcome.source, outcome.detail);
      return;
    }
    noteSeen(outcome.record.id);
    if (importedIds.has(outcome.record.id)) {
      skip('duplicate', outcome.source, `${outcome.record.id} was already imported from another file`);
      return;
    }
    // Strings arrive from the workers as new copies per record: names, vendors, statuses and dates are
    // kept once each, and the usual url is the shared prefix joined to the id rather than a copy of its own.
    const { name, vendor, step } = outcome.naming;
    const occurrence: NameOccurrence = { name: intern(name), vendor: vendor === undefined ? undefined : intern(vendor), step };
    const { id, status, url, summary, published, modified } = outcome.record;
    const record: CatalogRecord = {
      id,
      project: occurrence.name,
      status: intern(status) as CatalogRecord['status'],
      url: url === CVE_RECORD_URL_PREFIX + id ? CVE_RECORD_URL_PREFIX + id : url,
    };
    if (summary !== undefined) record.summary = summary;
    if (published !== undefined) record.published = intern(published);
    if (modified !== undefined) record.modified = modified;
    const text = outcome.details;
    details.add(text === undefined ? undefined : { json: text.json, filters: { ...text.filters, cwes: text.filters.cwes.map(intern) } });
    importedIds.add(id);
    records.push(record);
    occurrences.push(occurrence);
    namedBy[outcome.naming.step]++;
    for (const warning of outcome.warnings) warnings.push({ ...warning, source: outcome.source });
  };

  const produce = async () => {
    let batch: InputEntry[] = [];
    try {
      for await (const entry of entries) {
        if (!('inputError' in entry)) {
          read++;
          options.onEntry?.(read);
        }
        batch.push(entry);
        if (batch.length === BATCH) {
          await pool.send(batch);
          batch = [];
        }
      }
      if (batch.length > 0) await pool.send(batch);
    } finally {
      pool.end();
    }
  };
  const consume = async () => {
    for await (const outcomes of pool.outcomes()) for (const outcome of outcomes) take(outcome);
  };
  await Promise.all([produce(), consume()]);
  const imported = importedIds.size;
  importedIds.clear();

  // A cleared id with no record in the input is assigned but not public yet.
  let assigned = 0;
  for (const [id, listedProject] of options.listUnpublished === false ? [] : (options.cleared ?? [])) {
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
    records.push({ id, project, status: 'assigned-no-public-record', url: null });
    details.add(undefined);
    occurrences.push({ name: project, vendor: undefined, step: 'operator' });
    assigned++;
  }

  // One name per project, however the records spelled it.
  const aliases = options.aliasesFor === undefined ? options.aliases : await options.aliasesFor(aliasKeysOf(occurrences));
  const canonical = canonicalProjects(occurrences, aliases);
  records.forEach((record, i) => {
    (record as { project: string }).project = canonical.nameOf(occurrences[i]!);
  });
  // Sorted as indexes, which the details are kept by.
  const order = records.map((_, index) => index).sort((a, b) => compareListingOrder(records[a]!.id, records[b]!.id));
  const sorted = order.map((index) => records[index]!);
  const used = new Set(sorted.map((record) => record.project));
  const projects = canonical.projects
    .filter((project) => used.has(project.name) && project.aliases.length > 0)
    .map((project) => ({ name: project.name, aliases: [...project.aliases] }));
  return {
    catalog: { lastVerified: options.lastVerified, projects, records: sorted },
    details: { ...details.inOrder(order), close: () => details.close() },
    read,
    imported,
    assigned,
    skipped,
    namedBy,
    problems,
    warnings,
    rejected,
    groups: canonical.groups,
  };
}

/**
 * The records of an import with their details as objects, read back from its file: for a sync, which
 * merges them into a catalog held whole.
 */
export function recordsWithDetails({ catalog, details }: ImportResult): CatalogRecord[] {
  return catalog.records.map((record, index) => {
    const text = details.text(index);
    return text === undefined ? record : { ...record, details: JSON.parse(text) as RecordDetails };
  });
}
