// The next snapshot version from a change read from the store of record (the rows past the snapshot's
// sequence), without reading the rest of the catalog again: the columns are copied with the changed rows
// put in (table-patch.ts), unchanged records keep reading the texts they had (patched-texts.ts), and the
// content version moves by the changed records' hashes alone (content-hash.ts). The previous snapshot is
// never touched: requests still on it finish on it.
import type { CatalogProject, CatalogRecord, CatalogRemoval } from '../contract/index.js';
import { patchedChangeOrder } from './change-order.js';
import { recordHash, sumHashes, versionOf } from './content-hash.js';
import { compareListingOrder } from './cve-id.js';
import type { Derived } from './derived.js';
import { detailsJson } from './details-json.js';
import { patchedIdIndex } from './id-index.js';
import { partitionPoint } from './partition-point.js';
import { type OwnTexts, PatchedTexts } from './patched-texts.js';
import { type RecordTable, type TableRecord, tableRecord } from './record-table.js';
import type { SearchIndex } from './search/search-index.js';
import { layeredIndexSteps } from './search/search-layers.js';
import { assembleSnapshot, inListingOrder, type ProjectAliases, type Snapshot } from './snapshot.js';
import { patchTable } from './table-patch.js';
import type { TextStore } from './text-store.js';

/** What changed in the store between two sequences. */
export interface SnapshotChange {
  /** The store's sequence after the change: the snapshot made holds everything up to it. */
  readonly sequence: number;
  readonly lastVerified: string;
  /** Records added or changed, whole, as the store now holds them (details included). */
  readonly upserted: readonly CatalogRecord[];
  /**
   * Records that left the catalog, with when: the record goes if held, and the removal is listed in the
   * change feed (replacing an earlier removal of the id). A record upserted again loses its removal.
   */
  readonly removed: readonly CatalogRemoval[];
  /** Projects whose other spellings changed, each with all it has now (none: the project has no other spelling). */
  readonly projects?: readonly CatalogProject[] | undefined;
}

export class ConflictingChangeError extends Error {
  constructor(readonly id: string) {
    super(`change both upserts and removes ${id}`);
  }
}

/** A changed record as the store's rows give it: its table entry, its hash, and its texts unless the store reads them on demand. */
export interface ChangedRow {
  readonly record: TableRecord;
  readonly hash: bigint;
  readonly texts?: OwnTexts | undefined;
}

/** What changed, with each record's facts already worked out (a store's rows keep them). */
export interface RowChange extends Omit<SnapshotChange, 'upserted'> {
  readonly upserted: readonly ChangedRow[];
}

/** The snapshot of `previous` with `change` applied: equal to one built from the merged catalog. */
export function applyChange(previous: Snapshot, change: SnapshotChange): Snapshot {
  return applyRows(previous, {
    ...change,
    upserted: change.upserted.map((record) => {
      const details = record.details === undefined ? undefined : detailsJson(record.details);
      return { record: tableRecord(record), hash: recordHash(record, details), texts: { summary: record.summary, details } };
    }),
  });
}

/**
 * `applyChange` of rows: `textsOf`, where the store reads texts on demand, gives the new snapshot's texts
 * by its ids and hashes; otherwise the rows' own texts are spilled and the rest read where they were.
 */
export function applyRows(
  previous: Snapshot,
  change: RowChange,
  textsOf?: (ids: readonly string[], hashOf: (position: number) => bigint) => TextStore,
): Snapshot {
  const upserted = inListingOrder(change.upserted.map((row) => ({ id: row.record.id, row }))).map(({ row }) => row);
  const leaving = new Set(change.removed.map((removal) => removal.id));
  for (const { record } of upserted) if (leaving.has(record.id)) throw new ConflictingChangeError(record.id);
  const { ids, from } = mergedOrder(previous, upserted, leaving);

  const brought = new Map<number, TableRecord>();
  const texts = new Map<number, OwnTexts>();
  const { column: previousHashes, sum: previousSum } = previous.hashes.get();
  const hashes = new BigUint64Array(ids.length);
  const added: bigint[] = [];
  let next = 0;
  for (let position = 0; position < ids.length; position++) {
    const before = from[position]!;
    if (before >= 0) {
      hashes[position] = previousHashes[before]!;
      continue;
    }
    const row = upserted[next++]!;
    brought.set(position, row.record);
    if (textsOf === undefined) texts.set(position, row.texts ?? { summary: undefined, details: undefined });
    hashes[position] = row.hash;
    added.push(row.hash);
  }
  const gone: bigint[] = [];
  for (const id of [...upserted.map((row) => row.record.id), ...leaving]) {
    const position = previous.positionOf(id);
    if (position !== undefined) gone.push(previousHashes[position]!);
  }
  const sum = sumHashes(previousSum, added, gone);
  const upsertedIds = new Set(upserted.map((row) => row.record.id));
  const removed = [...previous.removed.filter((removal) => !leaving.has(removal.id) && !upsertedIds.has(removal.id)), ...change.removed];

  const to = new Int32Array(previous.size).fill(-1);
  for (let position = 0; position < from.length; position++) if (from[position]! >= 0) to[from[position]!] = position;
  const table = patchTable(previous.table, ids, from, to, brought);
  const patchedTexts = textsOf === undefined ? PatchedTexts.patch(previous.texts, from, texts) : textsOf(ids, hashAt(hashes));
  const aliases = patchedAliases(previous.aliases, change.projects ?? []);
  const previousOrder = previous.changes.built ? previous.changes.get() : undefined;
  return assembleSnapshot({
    version: versionOf(change.lastVerified, ids.length, sum, removed),
    lastVerified: change.lastVerified,
    sequence: change.sequence,
    table,
    texts: patchedTexts,
    hashes: { column: hashes, sum },
    aliases,
    removed,
    search: layeredSearch(previous.search, from, table, patchedTexts, aliases),
    ids: patchedIdIndex(previous.ids, ids, from),
    changes: previousOrder && ((inOrder) => patchedChangeOrder(previousOrder, to, table, [...brought.keys()], inOrder)),
  });
}

/**
 * The hash of each position, for the texts a store reads on demand, which keep it. Made here, not in
 * applyRows: a closure keeps the whole scope it was made in, and one made there kept what the scope's other
 * closures read (the previous snapshot's index and change order) for as long as the texts lived.
 */
function hashAt(hashes: BigUint64Array): (position: number) => bigint {
  return (position) => hashes[position]!;
}

/**
 * The steps of the snapshot's index, layered on the previous snapshot's (its base, built when this one's
 * is, which a start from a checkpoint does after its first answers), which it lets go once built: V8 keeps a
 * generator function reachable after its run (from the shape of the objects it made), and with it what it
 * read. Holding the previous index for good cost a `serve --sync` at 20,000 records 49 -> 96 MB of live
 * heap over its first 10 changes (docs/PERFORMANCE.md, "Memory over many deltas, stop 36").
 */
function layeredSearch(
  previous: Derived<SearchIndex>,
  from: Int32Array,
  table: RecordTable,
  texts: TextStore,
  aliases: ProjectAliases,
): () => Generator<void, SearchIndex, void> {
  let before: Derived<SearchIndex> | undefined = previous;
  return function* () {
    const index = yield* layeredIndexSteps((yield* before!.steps()).text, from, table, texts, aliases);
    before = undefined;
    return index;
  };
}

/**
 * The ids in listing order after the change, and where each record was before (-1: an upserted record,
 * which comes in the order of `upserted`). Each upserted id finds its place by bisection, so the walk
 * over the previous ids compares no strings.
 */
function mergedOrder(
  previous: Snapshot,
  upserted: readonly ChangedRow[],
  leaving: ReadonlySet<string>,
): { ids: string[]; from: Int32Array } {
  const { ids: previousIds } = previous.table;
  const skip = new Uint8Array(previousIds.length);
  for (const id of [...upserted.map((row) => row.record.id), ...leaving]) {
    const position = previous.positionOf(id);
    if (position !== undefined) skip[position] = 1;
  }
  const places = upserted.map(({ record }) =>
    partitionPoint(0, previousIds.length, (i) => compareListingOrder(previousIds[i]!, record.id) < 0),
  );
  let kept = 0;
  for (const flag of skip) kept += 1 - flag;
  const size = kept + upserted.length;
  const ids = new Array<string>(size);
  const from = new Int32Array(size);
  let at = 0;
  let next = 0;
  for (let before = 0; before <= previousIds.length; before++) {
    while (next < upserted.length && places[next] === before) {
      ids[at] = upserted[next]!.record.id;
      from[at++] = -1;
      next++;
    }
    if (before < previousIds.length && skip[before] === 0) {
      ids[at] = previousIds[before]!;
      from[at++] = before;
    }
  }
  return { ids, from };
}

/** The spellings after a change: a project listed takes its new list, and one listed with none loses them. */
function patchedAliases(previous: ProjectAliases, projects: readonly CatalogProject[]): ProjectAliases {
  if (projects.length === 0) return previous;
  const aliases = new Map(previous);
  for (const { name, aliases: spellings } of projects) {
    if (spellings.length > 0) aliases.set(name, spellings);
    else aliases.delete(name);
  }
  return aliases;
}
