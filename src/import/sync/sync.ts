// A sync: each step upstream offers after the catalog's cursor is read through the same mapping and
// selection as an import, merged into the catalog, and handed out as a whole new catalog carrying its new
// cursor, for the caller to check and write (one rename: the catalog and its cursor move together, so a
// sync killed anywhere leaves the last whole step, and a rerun applies nothing twice).
import type { CatalogFile, CatalogRecord, SyncCursor } from '../../contract/index.js';
import { type AliasTable, compactKey } from '../canonical-projects.js';
import { type ImportOptions, type ImportResult, importRecords, recordsWithDetails } from '../importer.js';
import { type MergeReport, mergeChanges } from './merge.js';
import { type Upstream, UpstreamError, type UpstreamStep } from './upstream.js';

export type SyncSelection = Pick<ImportOptions, 'cleared' | 'assigner' | 'overrides' | 'aliases' | 'workers'>;

export interface AppliedStep {
  readonly label: string;
  readonly catalog: CatalogFile;
  readonly report: MergeReport;
  readonly result: ImportResult;
}

export async function* syncSteps(
  start: CatalogFile,
  upstream: Upstream,
  selection: SyncSelection,
  now: () => Date = () => new Date(),
): AsyncGenerator<AppliedStep, void, undefined> {
  let catalog = start;
  for await (const step of upstream.steps(catalog.sync)) {
    const result = await importRecords(step.entries(), {
      ...selection,
      lastVerified: catalog.lastVerified,
      aliases: withCatalogNames(selection.aliases ?? new Map(), catalog),
      // A baseline holds every record, so a cleared id it lacks is not public yet; a delta says nothing of one.
      listUnpublished: step.whole,
    });
    if (result.skipped['unreadable-input'] > 0) {
      // A download cut short or a damaged archive: stop before the cursor passes what was not read.
      const problem = result.problems.find((p) => p.category === 'unreadable-input');
      throw new UpstreamError(`${step.label} could not be read (${problem?.source}: ${problem?.detail}); the cursor stays where it was`);
    }
    // The merge takes a whole catalog and gives one: the step's details are read back as objects for it.
    const records = recordsWithDetails(result);
    result.details.close();
    const merged = mergeChanges(catalog, { records, projects: result.catalog.projects ?? [], rejected: result.rejected }, now());
    catalog = { ...merged.catalog, sync: advance(catalog.sync, upstream.name, step, records, now()) };
    yield { label: step.label, catalog, report: merged.report, result };
    await step.release();
  }
}

/** The cursor after a step: never moved back (a late baseline is older than the deltas already applied). */
function advance(
  cursor: SyncCursor | undefined,
  source: string,
  step: UpstreamStep,
  records: readonly CatalogRecord[],
  at: Date,
): SyncCursor {
  const later = (a: string | undefined, b: string | undefined) => (a === undefined ? b : b === undefined || a > b ? a : b);
  let dateUpdated = cursor?.dateUpdated;
  for (const record of records) dateUpdated = later(record.modified, dateUpdated);
  const next: SyncCursor = { source, syncedAt: at.toISOString() };
  const baseline = later(step.reaches.baseline, cursor?.baseline);
  const delta = later(step.reaches.delta, cursor?.delta);
  const commit = step.reaches.commit ?? cursor?.commit;
  return {
    ...next,
    ...(baseline ? { baseline } : {}),
    ...(delta ? { delta } : {}),
    ...(commit ? { commit } : {}),
    ...(dateUpdated ? { dateUpdated } : {}),
  };
}

/**
 * The curated spellings plus the catalog's own names and their aliases, so a record that arrives in a
 * delta joins the project its spelling already belongs to instead of naming a new one: project names stay
 * stable across syncs. The curated table wins where both know a spelling.
 */
function withCatalogNames(curated: AliasTable, catalog: CatalogFile): AliasTable {
  const table = new Map<string, string>();
  for (const record of catalog.records) table.set(compactKey(record.project), record.project);
  for (const project of catalog.projects ?? []) for (const alias of project.aliases) table.set(compactKey(alias), project.name);
  for (const [key, name] of curated) table.set(key, name);
  return table;
}
