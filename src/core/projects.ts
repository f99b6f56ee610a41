// The projects of a snapshot: how many records each has, and the spellings of a name in any case (the
// exact filter is case-sensitive, so a person typing "OPENSSL" is pointed at "OpenSSL").
import type { RecordTable } from './record-table.js';

export interface ProjectTable {
  /** Every project with its number of records, most records first, then by name. */
  readonly byCount: readonly { readonly name: string; readonly records: number }[];
  /** Every spelling of this name in the snapshot, whatever its case. */
  spellingsOf(name: string): readonly string[];
}

export function projectTable(table: RecordTable): ProjectTable {
  const counts = new Uint32Array(table.projectNames.length);
  for (const project of table.projectOf) counts[project]!++;
  const byLowercase = new Map<string, string[]>();
  for (const name of table.projectNames) {
    const key = name.toLowerCase();
    const spellings = byLowercase.get(key);
    if (spellings) spellings.push(name);
    else byLowercase.set(key, [name]);
  }
  const byCount = table.projectNames
    .map((name, index) => ({ name, records: counts[index]! }))
    .sort((a, b) => b.records - a.records || a.name.localeCompare(b.name));
  return { byCount, spellingsOf: (name) => byLowercase.get(name.toLowerCase()) ?? [] };
}
