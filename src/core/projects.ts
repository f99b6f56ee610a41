// The projects of a snapshot: how many records each has (in all and by status), its other spellings, and
// the spellings of a name in any case (the exact filter is case-sensitive, so a person typing "OPENSSL" is
// pointed at "OpenSSL").
import type { ProjectSummary } from '../contract/index.js';
import { partitionPoint } from './partition-point.js';
import { type RecordTable, STATUS_CODES } from './record-table.js';

export interface ProjectTable {
  /** Every project with its number of records, most records first, then by name. */
  readonly byCount: readonly { readonly name: string; readonly records: number }[];
  /** Every project as the projects operation serves it, in the order of the table's project names. */
  readonly summaries: readonly ProjectSummary[];
  /** Every spelling of this name in the snapshot, whatever its case. */
  spellingsOf(name: string): readonly string[];
  /** Where this name is in `summaries`, if it is a project's. */
  positionOf(name: string): number | undefined;
  /** Where the project at this position of `summaries` stands in `byCount` (0: the most records). */
  rankOf(position: number): number;
  /**
   * Positions in `summaries` of the projects whose name or an alias begins with the text, in any case:
   * found by bisection in the sorted spellings, so a look-up costs the names it finds, not the table.
   */
  startingWith(text: string): Set<number>;
}

export function projectTable(table: RecordTable, aliases: ReadonlyMap<string, readonly string[]>): ProjectTable {
  const counts = STATUS_CODES.map(() => new Uint32Array(table.projectNames.length));
  for (let position = 0; position < table.size; position++) counts[table.status[position]!]![table.projectOf[position]!]!++;
  const byLowercase = new Map<string, string[]>();
  for (const name of table.projectNames) {
    const key = name.toLowerCase();
    const spellings = byLowercase.get(key);
    if (spellings) spellings.push(name);
    else byLowercase.set(key, [name]);
  }
  const summaries = table.projectNames.map((name, index) => ({
    name,
    aliases: [...(aliases.get(name) ?? [])],
    records: Object.fromEntries(STATUS_CODES.map((status, code) => [status, counts[code]![index]!])) as ProjectSummary['records'],
  }));
  const byCount = summaries
    .map(({ name, records }) => ({ name, records: records.public + records['assigned-no-public-record'] }))
    .sort((a, b) => b.records - a.records || a.name.localeCompare(b.name));
  const positions = new Map(table.projectNames.map((name, index) => [name, index]));
  const ranks = new Uint32Array(summaries.length);
  byCount.forEach(({ name }, rank) => {
    ranks[positions.get(name)!] = rank;
  });
  const spellings = summaries
    .flatMap(({ name, aliases }, position) => [name, ...aliases].map((spelling) => ({ key: spelling.toLowerCase(), position })))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.position - b.position));
  const startingWith = (text: string): Set<number> => {
    const start = text.toLowerCase();
    const low = partitionPoint(0, spellings.length, (i) => spellings[i]!.key < start);
    const found = new Set<number>();
    for (let i = low; i < spellings.length && spellings[i]!.key.startsWith(start); i++) found.add(spellings[i]!.position);
    return found;
  };
  return {
    byCount,
    summaries,
    spellingsOf: (name) => byLowercase.get(name.toLowerCase()) ?? [],
    positionOf: (name) => positions.get(name),
    rankOf: (position) => ranks[position]!,
    startingWith,
  };
}
