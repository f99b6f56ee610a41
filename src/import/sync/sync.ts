// A sync: each step upstream offers after the store's cursor is read through the same mapping and
// selection as an import and merged into the store of record in one transaction with its new cursor (so
// a sync killed anywhere leaves the last whole step, and a rerun applies nothing twice). A step costs what
// it brings: the store's rows for those ids are read and the changed ones written, never the catalog.
import type { CatalogRecord, SyncCursor } from '../../contract/index.js';
import { compactKey } from '../../core/compact-key.js';
import type { KnownNames, NameLookups, RecordStore } from '../../core/record-store.js';
import type { AliasTable } from '../canonical-projects.js';
import { type ImportOptions, type ImportResult, importRecords } from '../importer.js';
import { type MergeReport, mergeInto } from './merge.js';
import { type Upstream, UpstreamError, type UpstreamStep } from './upstream.js';

export type SyncSelection = Pick<ImportOptions, 'cleared' | 'assigner' | 'overrides' | 'aliases' | 'workers'>;

export interface AppliedStep {
  readonly label: string;
  /** The store's sequence after the step. */
  readonly sequence: number;
  /** How long the step took, from reading its asset to its commit (a download before it excluded). */
  readonly ms: number;
  /**
   * The process's CPU time over the same span (all its threads): less dependent on other processes' load
   * than `ms`, so it is what the step's cost is measured by (docs/PERFORMANCE.md).
   */
  readonly cpuMs: number;
  /** A baseline or a whole tree: the step read every record. */
  readonly whole: boolean;
  readonly report: MergeReport;
  readonly result: ImportResult;
}

export async function* syncSteps(
  store: RecordStore,
  upstream: Upstream,
  selection: SyncSelection,
  {
    now = () => new Date(),
    lastVerified,
    beforeWhole = () => {},
  }: {
    now?: () => Date;
    lastVerified?: string | undefined;
    /** Called before a whole step (a baseline, a whole tree) is read: `sync` bounds its heap's growth then (cli/batch-heap.ts). */
    beforeWhole?: () => void;
  } = {},
): AsyncGenerator<AppliedStep, void, undefined> {
  const start = await store.state();
  for await (const step of upstream.steps(start.sync)) {
    try {
      if (step.whole) beforeWhole();
      const started = performance.now();
      const cpu = process.cpuUsage();
      const { sequence, result: applied } = await store.step(async (writer) => {
        const { state } = writer;
        // A store no step has written yet takes the date it was asked to (today's by default).
        const verified = state.sequence === 0 && state.sync === undefined ? (lastVerified ?? state.lastVerified) : state.lastVerified;
        const curated = selection.aliases ?? new Map();
        const result = await importRecords(step.entries(), {
          ...selection,
          // A delta is hundreds of records: mapped on this thread in less time than mapping threads take to start.
          ...(step.whole ? {} : { workers: 0 }),
          lastVerified: verified,
          // A baseline holds every record: named over itself, exactly as an import of it is, so the same
          // baseline twice renames nothing. A delta holds a few: its spellings take the catalog's names,
          // of which the store is asked for those the spellings are looked up by.
          ...(step.whole
            ? { aliases: curated }
            : { aliasesFor: async (keys: ReadonlySet<string>) => withCatalogNames(curated, await writer.knownNames(nameLookups(keys))) }),
          // A baseline holds every record, so a cleared id it lacks is not public yet; a delta says nothing of one.
          listUnpublished: step.whole,
        });
        try {
          refuseUnsound(step, result);
          const { records } = result.catalog;
          const { report, feedEnd } = await mergeInto(
            writer,
            { records, details: result.details, projects: result.catalog.projects ?? [], rejected: result.rejected },
            now(),
          );
          await writer.setGroups(result.groups, step.whole);
          return {
            end: { lastVerified: verified, sync: advance(state.sync, upstream.name, step, records, now()), feedEnd },
            result: { report, result },
          };
        } finally {
          result.details.close();
        }
      });
      const { user, system } = process.cpuUsage(cpu);
      yield { label: step.label, sequence, ms: performance.now() - started, cpuMs: (user + system) / 1000, whole: step.whole, ...applied };
    } finally {
      // Applied or refused, what the step brought (a download) goes: a refused one is fetched again next time.
      await step.release();
    }
  }
}

/**
 * Where a step is refused before anything of it is written. An asset whose structure is hostile or
 * damaged at any level (not a zip, cut short, a bomb, entries lying about their size or checksum,
 * overlapping entries, unsafe paths, symbolic links; zip-entries.ts), or a path that could not be read,
 * is not applied at all, not even the records read before the damage: a damaged baseline applied as if it
 * held fewer records would move the cursor past the day's real one. A bad record in a sound asset (not
 * JSON, not UTF-8, over the size limit) is skipped and reported instead, since deltas are cumulative and
 * refusing one for one record would stop the day.
 */
function refuseUnsound(step: UpstreamStep, result: ImportResult): void {
  const unsound = result.problems.find((problem) => problem.category === 'unreadable-input');
  if (unsound) throw new UpstreamError(`${step.label} refused (${unsound.source}: ${unsound.detail}); catalog and cursor unchanged`);
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
 * What the store is asked for the keys a delta's spellings are looked up by, by the entry withCatalogNames
 * makes for each kind of key: a compact key (no `@`) the project of that compact key, a group's key its
 * project, and `product@` (a spelling without a vendor) the groups of that product key.
 */
function nameLookups(keys: ReadonlySet<string>): NameLookups {
  const names: string[] = [];
  const groups: string[] = [];
  const products: string[] = [];
  for (const key of keys) {
    const at = key.lastIndexOf('@');
    if (at < 0) names.push(key);
    else if (at === key.length - 1) products.push(key.slice(0, at));
    else groups.push(key);
  }
  return { names, groups, products };
}

/**
 * The curated spellings plus the catalog's names, so a record that arrives in a delta joins the project an
 * import of every record would give it: its vendor's group's project (held since the step that named
 * the group), else a project of its very name. A spelling without a vendor joins the project of the most
 * records among the groups of its product key (with or without the vendor's name in front), as an import
 * joins the most used vendor's group. Never a
 * project that merely shares a spelling: Devolutions' "Server" is not MongoDB's "Server". A store that
 * holds no groups yet (written before they were kept, until its next baseline) maps spellings onto the
 * catalog's by spelling alone. The curated table wins where both know a spelling. `known` holds what the
 * step's keys ask for (nameLookups): the entries made for those keys are those the whole of it would make.
 */
function withCatalogNames(curated: AliasTable, known: KnownNames): AliasTable {
  const table = new Map<string, string>();
  for (const project of known.projects.keys()) table.set(compactKey(project), project);
  for (const project of known.aliases ?? []) for (const alias of project.aliases) table.set(compactKey(alias), project.name);
  const records = (project: string | undefined) => (project === undefined ? -1 : (known.projects.get(project) ?? 0));
  for (const [group, project] of known.groups) {
    table.set(group, project);
    const at = group.lastIndexOf('@');
    const product = group.slice(0, at);
    // Keyed as a spelling without a vendor: the product alone, or after its vendor's name ("Oracle VM
    // VirtualBox" read from a description is Oracle's "VM VirtualBox").
    for (const withoutVendor of [`${product}@`, `${group.slice(at + 1)}${product}@`])
      if (records(project) > records(table.get(withoutVendor))) table.set(withoutVendor, project);
  }
  for (const [key, name] of curated) table.set(key, name);
  return table;
}
