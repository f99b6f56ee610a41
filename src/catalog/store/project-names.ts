// The compact key of each project name records use (cve_project_names, schema.ts): what a sync's delta
// finds the catalog's projects by (StoreWriter.knownNames), a few index searches where reading every
// project name cost the step a pass over the records. Each writer adds the names of the records it writes;
// a store migrated from before the table is filled from its records by the migration's run. A name no
// record uses any more stays in the table: reads leave out the names without records.
import { compactKey } from '../../core/compact-key.js';

/** The migration that made the table (schema.ts): a store migrated from before it has it filled then. */
export const PROJECT_NAMES_MIGRATION = 8;

export interface ProjectNameRow {
  readonly project: string;
  readonly key: string;
}

/** The rows of names not given to it before: one per name per step, however many records use it. */
export function newProjectNames(): (projects: Iterable<string>) => ProjectNameRow[] {
  const written = new Set<string>();
  return (projects) => {
    const rows: ProjectNameRow[] = [];
    for (const project of projects) {
      if (written.has(project)) continue;
      written.add(project);
      rows.push({ project, key: compactKey(project) });
    }
    return rows;
  };
}
