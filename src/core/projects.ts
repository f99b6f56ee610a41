// The projects of a snapshot: how many records each has, and the spellings of a name in any case (the
// exact filter is case-sensitive, so a person typing "OPENSSL" is pointed at "OpenSSL").
import type { RecordEntry } from './record-entry.js';

export interface ProjectTable {
  /** Every project with its number of records, most records first, then by name. */
  readonly byCount: readonly { readonly name: string; readonly records: number }[];
  /** Every spelling of this name in the snapshot, whatever its case. */
  spellingsOf(name: string): readonly string[];
}

export function projectTable(entries: Iterable<RecordEntry>): ProjectTable {
  const counts = new Map<string, number>();
  for (const { record } of entries) counts.set(record.project, (counts.get(record.project) ?? 0) + 1);
  const byLowercase = new Map<string, string[]>();
  for (const name of counts.keys()) {
    const key = name.toLowerCase();
    const spellings = byLowercase.get(key);
    if (spellings) spellings.push(name);
    else byLowercase.set(key, [name]);
  }
  const byCount = [...counts]
    .sort(([nameA, countA], [nameB, countB]) => countB - countA || nameA.localeCompare(nameB))
    .map(([name, records]) => ({ name, records }));
  return { byCount, spellingsOf: (name) => byLowercase.get(name.toLowerCase()) ?? [] };
}
