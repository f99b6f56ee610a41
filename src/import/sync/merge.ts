// Applies what a sync read upstream to the store of record, inside the step's transaction: records added
// or changed, ids rejected. It reads only the rows of the ids the step brings (a batch at a time), never
// the catalog, and writes only what changed; a failure anywhere rolls the whole step back.
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
import type { CatalogProject, CatalogRecord, CatalogRemoval } from '../../contract/index.js';
import type { CatalogDetails } from '../../core/catalog-details.js';
import { feedTime, type StoredRecord, type StoreWriter } from '../../core/record-store.js';

export interface UpstreamChanges {
  /** Records as mapped from upstream (without details), named with the catalog's own project names where they match. */
  readonly records: readonly CatalogRecord[];
  /** Their details, by index in `records`. */
  readonly details: CatalogDetails;
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

/** Whether a merge changed any record. */
export function changedAny(report: MergeReport): boolean {
  return report.added.length + report.updated.length + report.published.length + report.removed.length > 0;
}

/** Records read from the store and compared per round trip: a few megabytes of details. */
const BATCH = 2000;

/** Merges a step into the store; returns what changed and where the change feed now ends (ms). */
export async function mergeInto(
  writer: StoreWriter,
  changes: UpstreamChanges,
  now: Date,
): Promise<{ report: MergeReport; feedEnd: number }> {
  const report: MergeReport = { added: [], updated: [], published: [], removed: [], older: 0 };
  // Where the change feed ends before this merge: a change at or before it would be behind clients' tokens.
  const newest = writer.state.feedEnd;
  let feedEnd = newest;
  const takenAt = new Date(Math.max(now.getTime(), newest + 1)).toISOString();
  const inFeed = (record: CatalogRecord): CatalogRecord => {
    const { changed: _, ...own } = record;
    return own.modified !== undefined && Date.parse(own.modified) > newest ? own : { ...own, changed: takenAt };
  };

  for (let start = 0; start < changes.records.length; start += BATCH) {
    const batch = changes.records.slice(start, start + BATCH);
    const { records: held, removals } = await writer.held(batch.map((record) => record.id));
    const writes: StoredRecord[] = [];
    batch.forEach((record, i) => {
      const kept = held.get(record.id);
      // A cleared id a baseline lacks: new to the catalog, or already there (never taken back from public).
      if (record.status === 'assigned-no-public-record' && (kept !== undefined || removals.has(record.id))) return;
      const details = changes.details.text(start + i);
      if (kept === undefined) {
        const removedAt = removals.get(record.id);
        if (removedAt !== undefined && isOlder(record.modified, removedAt)) {
          report.older++;
          return;
        }
        writes.push({ record: inFeed(record), details });
        report.added.push(record.id);
        return;
      }
      if (kept.record.status === 'public' && isOlder(record.modified, kept.record.modified)) {
        report.older++;
        return;
      }
      if (sameRecord(kept, record, details)) return;
      writes.push({ record: inFeed(record), details });
      (kept.record.status === 'public' ? report.updated : report.published).push(record.id);
    });
    await writer.upsert(writes);
    for (const { record } of writes) feedEnd = Math.max(feedEnd, feedTime(record));
  }

  const rejected = [...changes.rejected];
  for (let start = 0; start < rejected.length; start += BATCH) {
    const batch = rejected.slice(start, start + BATCH);
    const { records: held } = await writer.held(batch.map(([id]) => id));
    const leaving: CatalogRemoval[] = [];
    for (const [id, rejectedAt] of batch) {
      const kept = held.get(id);
      if (kept === undefined) continue;
      if (kept.record.status === 'public' && rejectedAt !== undefined && isOlder(rejectedAt, kept.record.modified)) {
        report.older++;
        continue;
      }
      const late = rejectedAt === undefined || Date.parse(rejectedAt) <= newest;
      leaving.push({ id, modified: late ? takenAt : rejectedAt });
      report.removed.push(id);
    }
    await writer.remove(leaving);
    for (const removal of leaving) feedEnd = Math.max(feedEnd, Date.parse(removal.modified));
  }

  await writer.setAliases(await mergedAliases(writer, changes.projects));
  return { report, feedEnd };
}

/** Whether an upstream time is before the one held; a time that is not known is never older. */
function isOlder(time: string | undefined, held: string | undefined): boolean {
  return time !== undefined && held !== undefined && Date.parse(time) < Date.parse(held);
}

function sameRecord({ record: a, details: held }: StoredRecord, b: CatalogRecord, details: string | undefined): boolean {
  return (
    a.project === b.project &&
    a.status === b.status &&
    a.url === b.url &&
    a.summary === b.summary &&
    a.published === b.published &&
    a.modified === b.modified &&
    held === details
  );
}

/** The projects whose spellings the step adds to, each with every spelling now known (held and new). */
async function mergedAliases(writer: StoreWriter, added: readonly CatalogProject[]): Promise<CatalogProject[]> {
  const named = added.filter((project) => project.aliases.some((alias) => alias !== project.name));
  if (named.length === 0) return [];
  const held = await writer.aliasesOf(named.map((project) => project.name));
  const merged: CatalogProject[] = [];
  for (const project of named) {
    const before = held.get(project.name) ?? [];
    const spellings = new Set(before);
    for (const alias of project.aliases) if (alias !== project.name) spellings.add(alias);
    if (spellings.size === before.length) continue;
    merged.push({ name: project.name, aliases: [...spellings].sort() });
  }
  return merged;
}
