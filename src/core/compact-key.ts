// The spelling-free form project names are compared in: the import's grouping of spellings
// (import/canonical-projects.ts) and the store of record, which keeps the form of each project name its
// records use (catalog/store/schema.ts, cve_project_names) so that a sync's delta asks for the names its
// spellings match rather than reading them all.

/** Letters and digits only, lower case. */
export function compactKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}
