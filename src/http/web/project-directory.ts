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

export function projectDirectory(snapshot: Snapshot): ProjectDirectory {
  const projects = snapshot.projects.get();
  return { suggested: projects.byCount.slice(0, SUGGESTED_PROJECTS).map((project) => project.name), spellingsOf: projects.spellingsOf };
}
