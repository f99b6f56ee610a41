// Which words of a query name a project of the catalog. Any run of consecutive words may: "linux
// kernel use after free" names Linux (by "linux"), Linux kernel (by both words) and kernel (a CNA
// product too). All are kept; ranking lets each project's records skip the words that named it.
import type { QueryTerm } from './query-understanding.js';
import type { SearchIndex } from './search-index.js';
import { weaknessPhraseWords } from './security-terms.js';
import type { VendorFamilies } from './vendor-families.js';

/**
 * How the words named the projects: as spelled, through an alias, as a vendor or family whose projects'
 * names begin with the word (vendor-families.ts), as a name's start, or as a typo.
 */
export type NamingKind = 'exact' | 'alias' | 'vendor' | 'prefix' | 'typo';

export interface NamedProjects {
  readonly kind: NamingKind;
  /** Positions, in the query's terms, of the words that name the projects. */
  readonly terms: readonly number[];
  readonly projects: readonly string[];
}

export function findNamedProjects(index: SearchIndex, families: VendorFamilies, terms: readonly QueryTerm[]): NamedProjects[] {
  const found: NamedProjects[] = [];
  // The words of a weakness's phrase name no project: "cross-site scripting" is not the project Scripting.
  const covered = weaknessPhraseWords(terms.map((term) => term.word));
  const inPhrase = new Set(covered);
  for (let start = 0; start < terms.length; start++) {
    for (let end = start + 1; end <= Math.min(terms.length, start + index.projects.longestName); end++) {
      if (inPhrase.has(end - 1)) break;
      const span = terms.slice(start, end);
      const exact = index.projects.named(span.flatMap((term) => term.forms[0]!));
      const viaAlias = spellingsWithAliases(span).flatMap((phrase) => index.projects.named(phrase));
      const positions = range(start, end);
      if (exact.length > 0) found.push({ kind: 'exact', terms: positions, projects: exact });
      const aliasOnly = [...new Set(viaAlias)].filter((project) => !exact.includes(project)).sort();
      if (aliasOnly.length > 0) found.push({ kind: 'alias', terms: positions, projects: aliasOnly });
      if (exact.length > 0 || aliasOnly.length > 0) for (const position of positions) covered.add(position);
    }
  }
  // A vendor's or family's word weighs its projects' records, beside any project of that exact name.
  terms.forEach((term, position) => {
    if (inPhrase.has(position)) return;
    const exactly = new Set(
      found.filter((match) => match.terms.length === 1 && match.terms[0] === position).flatMap((match) => match.projects),
    );
    const projects = families.projectsOf(term.word, index.text.frequency(term.word)).filter((project) => !exactly.has(project));
    if (projects.length > 0) {
      found.push({ kind: 'vendor', terms: [position], projects });
      covered.add(position);
    }
  });
  // A word the records never use may still be the start of a project name, or a typo of one.
  terms.forEach((term, position) => {
    if (covered.has(position) || term.alias || index.vocabulary.has(term.word)) return;
    const approximate = index.projects.approximate(term.word);
    if (approximate) found.push({ kind: approximate.kind, terms: [position], projects: approximate.projects });
  });
  return found;
}

export function describeNamedProjects(named: NamedProjects, terms: readonly QueryTerm[]): string {
  const phrase = named.terms.map((position) => terms[position]!.word).join(' ');
  const shown = named.projects.slice(0, 5).join(', ');
  const more = named.projects.length > 5 ? ` and ${named.projects.length - 5} more` : '';
  switch (named.kind) {
    case 'exact':
      return `project ${phrase} → ${shown}${more}`;
    case 'alias':
      return `project ${phrase} → ${shown}${more} (alias)`;
    case 'vendor':
      return `vendor ${phrase} → ${shown}${more}`;
    case 'prefix':
      return `project ${phrase}… → ${shown}${more}`;
    case 'typo':
      return `project ${phrase} ~ ${shown}${more} (typo)`;
  }
}

/**
 * Spellings double with each aliased word of a span; no project name needs more than a few aliases
 * to spell, and "py py py …" must not cost 2^32 look-ups.
 */
const MAX_ALIASES_IN_A_NAME = 3;

/** Every spelling of the span that uses at least one alias target in place of the word typed. */
function spellingsWithAliases(span: readonly QueryTerm[]): string[][] {
  const aliased = span.filter((term) => term.alias !== undefined && term.forms.length > 1).length;
  if (aliased === 0 || aliased > MAX_ALIASES_IN_A_NAME) return [];
  let spellings: { words: string[]; aliased: boolean }[] = [{ words: [], aliased: false }];
  for (const term of span) {
    // The word as typed, and its alias target (the second spelling); a weakness's words name no project.
    const forms = term.alias === undefined ? term.forms.slice(0, 1) : term.forms.slice(0, 2);
    spellings = spellings.flatMap((prefix) =>
      forms.map((form, i) => ({ words: [...prefix.words, ...form], aliased: prefix.aliased || i > 0 })),
    );
  }
  return spellings.filter((spelling) => spelling.aliased).map((spelling) => spelling.words);
}

function range(start: number, end: number): number[] {
  return Array.from({ length: end - start }, (_, i) => start + i);
}
