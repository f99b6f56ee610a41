// Project names as the filter form needs them: the most common ones to suggest, and the exact
// spellings of a name typed in another case (the filter is exact and case-sensitive, as in the API).
import type { Snapshot } from '../../core/snapshot.js';

/** Suggestions in the project field; the dataset has thousands of names, too many for every page. */
const SUGGESTED_PROJECTS = 40;

export interface ProjectDirectory {
  /** The projects with the most records, most first. */
  readonly suggested: readonly string[];
  /** Every spelling of this name in the dataset, whatever its case. */
  spellingsOf(name: string): readonly string[];
}

// One directory per snapshot, built on first use and dropped with the snapshot.
const directories = new WeakMap<Snapshot, ProjectDirectory>();

export function projectDirectory(snapshot: Snapshot): ProjectDirectory {
  let directory = directories.get(snapshot);
  if (!directory) {
    directory = buildDirectory(snapshot);
    directories.set(snapshot, directory);
  }
  return directory;
}

function buildDirectory(snapshot: Snapshot): ProjectDirectory {
  const counts = new Map<string, number>();
  for (const { record } of snapshot.entries()) counts.set(record.project, (counts.get(record.project) ?? 0) + 1);
  const byLowercase = new Map<string, string[]>();
  for (const name of counts.keys()) {
    const key = name.toLowerCase();
    byLowercase.set(key, [...(byLowercase.get(key) ?? []), name]);
  }
  const suggested = [...counts]
    .sort(([nameA, countA], [nameB, countB]) => countB - countA || nameA.localeCompare(nameB))
    .slice(0, SUGGESTED_PROJECTS)
    .map(([name]) => name);
  return { suggested, spellingsOf: (name) => byLowercase.get(name.toLowerCase()) ?? [] };
}
