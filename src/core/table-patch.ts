// The columns after a change, by copying: a record the change did not touch keeps its values, moved to its
// new position; only the records it brought are read (as recordTable reads records). Project and CWE
// names are re-indexed only when the change adds a name or leaves one without records.
import { CVE_RECORD_URL_PREFIX } from './cve-id.js';
import { NO_DATE, type RecordTable, STATUS_CODES, type TableRecord } from './record-table.js';

/**
 * The table of a snapshot after a change: `from[position]` is the record's position in `previous`, or -1
 * for a record the change brought, which is in `brought` by its new position; `to` is the converse (where
 * each previous position went, -1 when the record left or changed). Ids are the new listing order.
 */
export function patchTable(
  previous: RecordTable,
  ids: readonly string[],
  from: Int32Array,
  to: Int32Array,
  brought: ReadonlyMap<number, TableRecord>,
): RecordTable {
  const size = from.length;
  const projects = renamed(
    previous.projectNames,
    from,
    (position, use) => use(previous.projectOf[position]!),
    [...brought.values()].map((r) => [r.project]),
  );
  const cwes = renamed(
    previous.cweNames,
    from,
    (position, use) => {
      for (let i = previous.cweStarts[position]!; i < previous.cweStarts[position + 1]!; i++) use(previous.cweOf[i]!);
    },
    [...brought.values()].map((r) => r.filters.cwes),
  );
  const projectOf = new Uint32Array(size);
  const status = new Uint8Array(size);
  const published = new Int32Array(size);
  const modified = new Float64Array(size);
  const year = new Uint16Array(size);
  const severity = new Uint8Array(size);
  const kev = new Uint8Array(size);
  const cweStarts = new Uint32Array(size + 1);
  const cweCount = [...brought.values()].reduce((sum, r) => sum + r.filters.cwes.length, 0);
  let cweOf = new Uint32Array(previous.cweOf.length + cweCount);
  const otherUrls = new Map<number, string | null>();
  const changed = new Map<number, number>();
  let cweAt = 0;
  for (let position = 0; position < size; position++) {
    const before = from[position]!;
    if (before >= 0) {
      projectOf[position] = projects.index[previous.projectOf[before]!]!;
      status[position] = previous.status[before]!;
      published[position] = previous.published[before]!;
      modified[position] = previous.modified[before]!;
      year[position] = previous.year[before]!;
      severity[position] = previous.severity[before]!;
      kev[position] = previous.kev[before]!;
      for (let i = previous.cweStarts[before]!; i < previous.cweStarts[before + 1]!; i++) cweOf[cweAt++] = cwes.index[previous.cweOf[i]!]!;
    } else {
      const record = brought.get(position)!;
      projectOf[position] = projects.byName.get(record.project)!;
      status[position] = STATUS_CODES.indexOf(record.status);
      published[position] = record.published === undefined ? NO_DATE : Date.parse(record.published) / 86_400_000;
      modified[position] = record.modified === undefined ? Number.NaN : Date.parse(record.modified);
      year[position] = Number(record.id.slice(4, 8));
      severity[position] = record.filters.severity;
      kev[position] = record.filters.kev ? 1 : 0;
      for (const cwe of record.filters.cwes) cweOf[cweAt++] = cwes.byName.get(cwe)!;
      if (record.changed !== undefined) changed.set(position, Date.parse(record.changed));
      if (record.status === 'public' && record.url !== CVE_RECORD_URL_PREFIX + record.id) otherUrls.set(position, record.url);
    }
    cweStarts[position + 1] = cweAt;
  }
  if (cweAt < cweOf.length) cweOf = cweOf.slice(0, cweAt);
  for (const [before, url] of previous.otherUrls) if (to[before]! >= 0) otherUrls.set(to[before]!, url);
  for (const [before, time] of previous.changed) if (to[before]! >= 0) changed.set(to[before]!, time);
  return {
    size,
    ids,
    projectNames: projects.names,
    projectOf,
    status,
    published,
    modified,
    year,
    otherUrls: sortedByKey(otherUrls),
    changed: sortedByKey(changed),
    severity,
    kev,
    cweNames: cwes.names,
    cweStarts,
    cweOf,
  };
}

interface Names {
  readonly names: readonly string[];
  /** The new index of each previous name's index (unused when the name left). */
  readonly index: Uint32Array;
  readonly byName: ReadonlyMap<string, number>;
}

/**
 * The sorted names in use after a change: those the kept records use (`usesOf` calls `use` with a previous
 * index) and those the brought records name. The previous list itself when nothing was added or left.
 */
function renamed(
  previous: readonly string[],
  from: Int32Array,
  usesOf: (position: number, use: (index: number) => void) => void,
  brought: readonly (readonly string[])[],
): Names {
  const used = new Uint8Array(previous.length);
  const use = (index: number) => {
    used[index] = 1;
  };
  for (const before of from) if (before >= 0) usesOf(before, use);
  const known = new Map(previous.map((name, index) => [name, index]));
  const added = new Set<string>();
  for (const names of brought) {
    for (const name of names) {
      const index = known.get(name);
      if (index === undefined) added.add(name);
      else used[index] = 1;
    }
  }
  const unchanged = added.size === 0 && used.every((flag) => flag === 1);
  const names = unchanged ? previous : [...previous.filter((_, index) => used[index] === 1), ...added].sort();
  const byName = unchanged ? known : new Map(names.map((name, index) => [name, index]));
  const index = unchanged ? Uint32Array.from(previous, (_, i) => i) : Uint32Array.from(previous, (name) => byName.get(name) ?? 0);
  return { names, index, byName };
}

/** The map with its entries in position order, as recordTable makes them (a snapshot file writes them in that order). */
function sortedByKey<V>(map: Map<number, V>): Map<number, V> {
  return new Map([...map].sort(([a], [b]) => a - b));
}
