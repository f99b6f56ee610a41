// Other names people type for projects of the catalog. Each target is a project name, or a word of
// project names, in the shipped catalog (test/search-query-understanding.test.ts checks it): an alias
// that leads nowhere only adds noise. The word as typed is still searched too, so an alias only widens.

export interface ProjectAlias {
  /** The word as people type it, lower case. */
  readonly alias: string;
  /** What it stands for, spelled as in the catalog. */
  readonly target: string;
}

export const PROJECT_ALIASES: readonly ProjectAlias[] = [
  { alias: 'postgres', target: 'PostgreSQL' },
  { alias: 'k8s', target: 'Kubernetes' },
  { alias: 'node', target: 'Node.js' },
  { alias: 'httpd', target: 'Apache HTTP Server' },
  { alias: 'osx', target: 'macOS' },
  { alias: 'vbox', target: 'VM VirtualBox' },
  { alias: 'python', target: 'CPython' },
  { alias: 'py', target: 'CPython' },
  { alias: 'ror', target: 'Ruby on Rails' },
  { alias: 'mongo', target: 'MongoDB Server' },
  { alias: 'win10', target: 'Windows 10' },
];

const BY_ALIAS = new Map(PROJECT_ALIASES.map((entry) => [entry.alias, entry]));

export function aliasOf(word: string): ProjectAlias | undefined {
  return BY_ALIAS.get(word);
}
