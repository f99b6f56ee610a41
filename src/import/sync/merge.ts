// Applies what a sync read upstream to a catalog: records added or changed, ids rejected. Pure: a new
// catalog out, the old one untouched, so a failure anywhere leaves the catalog being served as it was.
//
// Rules, each for an upstream fault or a transition:
// - a record whose upstream time is older than the one held is ignored (a delta arriving late, a baseline
//   older than the deltas already applied); an equal time changes nothing that is not different;
// - a record new to the catalog is added; one absent from a delta stays (deltas never list deletions, and
//   miss records now and then: the next baseline brings them);
// - a cleared id held as assigned-no-public-record that upstream publishes turns public, with its url; one
//   that a baseline lacks is added as assigned-no-public-record, and nothing held is ever taken back from public;
// - a change upstream published late (its time is not after the newest change the catalog already holds: a
//   delta missed it, a baseline brings it) is marked with the time the sync took it (`changed`), which is
//   where the change feed lists it, so a client polling with a token never skips it;
// - a rejected record leaves the catalog and is kept as a removal for the change feed (the spec's statuses
//   say a record is public or not yet public; a rejected CVE is neither); a record published again after
//   its rejection comes back and its removal goes.
import type { CatalogFile, CatalogProject, CatalogRecord } from '../../contract/index.js';
import { compareListingOrder } from '../../core/cve-id.js';
import { stableJson } from '../../core/stable-json.js';

export interface UpstreamChanges {
  /** Records as mapped from upstream, named with the catalog's own project names where they match. */
  readonly records: readonly CatalogRecord[];
  /** Other spellings of each project, from those records. */
  readonly projects: readonly CatalogProject[];
  /** Rejected ids and when they were rejected. */
  readonly rejected: ReadonlyMap<string, string | undefined>;
}

export interface MergeReport {
  readonly added: string[];
  readonly updated: string[];
  /** Cleared ids that turned public. */
  readonly published: string[];
  readonly removed: string[];
  /** Records upstream gave with a time older than the one held. */
  older: number;
}

/** Whether a merge changed any record: when none, the catalog's content (and its version) is what it was. */
export function changedAny(report: MergeReport): boolean {
  return report.added.length + report.updated.length + report.published.length + report.removed.length > 0;
}

export function mergeChanges(catalog: CatalogFile, changes: UpstreamChanges, now: Date): { catalog: CatalogFile; report: MergeReport } {
  const report: MergeReport = { added: [], updated: [], published: [], removed: [], older: 0 };
  const records = new Map(catalog.records.map((record) => [record.id, record]));
  const removed = new Map((catalog.removed ?? []).map((removal) => [removal.id, removal]));
  // Where the change feed ends before this merge: a change at or before it would be behind clients' tokens.
  let newest = Number.NEGATIVE_INFINITY;
  for (const record of catalog.records) newest = Math.max(newest, feedTime(record));
  for (const removal of removed.values()) newest = Math.max(newest, Date.parse(removal.modified));
  const takenAt = new Date(Math.max(now.getTime(), newest + 1)).toISOString();
  const inFeed = (record: CatalogRecord): CatalogRecord =>
    record.modified !== undefined && Date.parse(record.modified) > newest ? record : { ...record, changed: takenAt };

  for (const record of changes.records) {
    const held = records.get(record.id);
    // A cleared id a baseline lacks: new to the catalog, or already there (never taken back from public).
    if (record.status === 'assigned-no-public-record' && (held !== undefined || removed.has(record.id))) continue;
    if (held === undefined) {
      const removal = removed.get(record.id);
      if (removal && isOlder(record.modified, removal.modified)) {
        report.older++;
        continue;
      }
      removed.delete(record.id);
      records.set(record.id, inFeed(record));
      report.added.push(record.id);
      continue;
    }
    if (held.status === 'public' && isOlder(record.modified, held.modified)) {
      report.older++;
      continue;
    }
    if (sameRecord(held, record)) continue;
    records.set(record.id, inFeed(record));
    (held.status === 'public' ? report.updated : report.published).push(record.id);
  }

  for (const [id, rejectedAt] of changes.rejected) {
    const held = records.get(id);
    if (held === undefined) continue;
    if (held.status === 'public' && rejectedAt !== undefined && isOlder(rejectedAt, held.modified)) {
      report.older++;
      continue;
    }
    records.delete(id);
    const late = rejectedAt === undefined || Date.parse(rejectedAt) <= newest;
    removed.set(id, { id, modified: late ? takenAt : rejectedAt });
    report.removed.push(id);
  }

  if (!changedAny(report)) return { catalog, report };
  const merged = [...records.values()].sort((a, b) => compareListingOrder(a.id, b.id));
  return {
    catalog: {
      lastVerified: catalog.lastVerified,
      projects: mergedProjects(catalog.projects ?? [], changes.projects, merged),
      records: merged,
      removed: [...removed.values()].sort((a, b) => compareListingOrder(a.id, b.id)),
      ...(catalog.sync ? { sync: catalog.sync } : {}),
    },
    report,
  };
}

/** Where the change feed lists a record: when a sync took it, if upstream's time came late, else upstream's time. */
function feedTime(record: CatalogRecord): number {
  const time = Date.parse(record.changed ?? record.modified ?? '');
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
}

/** Whether an upstream time is before the one held; a time that is not known is never older. */
function isOlder(time: string | undefined, held: string | undefined): boolean {
  return time !== undefined && held !== undefined && Date.parse(time) < Date.parse(held);
}

function sameRecord(a: CatalogRecord, b: CatalogRecord): boolean {
  return (
    a.project === b.project &&
    a.status === b.status &&
    a.url === b.url &&
    a.summary === b.summary &&
    a.published === b.published &&
    a.modified === b.modified &&
    (a.details === undefined) === (b.details === undefined) &&
    (a.details === undefined || stableJson(a.details) === stableJson(b.details))
  );
}

/** Every spelling known of each project that still has records. */
function mergedProjects(
  held: readonly CatalogProject[],
  added: readonly CatalogProject[],
  records: readonly CatalogRecord[],
): CatalogProject[] {
  const used = new Set(records.map((record) => record.project));
  const aliases = new Map<string, Set<string>>();
  for (const project of [...held, ...added]) {
    if (!used.has(project.name)) continue;
    const known = aliases.get(project.name) ?? new Set<string>();
    for (const alias of project.aliases) if (alias !== project.name) known.add(alias);
    aliases.set(project.name, known);
  }
  return [...aliases]
    .filter(([, spellings]) => spellings.size > 0)
    .map(([name, spellings]) => ({ name, aliases: [...spellings].sort() }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
