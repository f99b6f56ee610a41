// One name per project however CNAs spell it. Spellings are grouped by vendor and by a product key that
// ignores case, punctuation, a "kernel"/"project"/"software" suffix, a trailing version, the vendor's own
// name in front ("Oracle VM VirtualBox" of vendor Oracle is "VM VirtualBox"), a CPE token's underscores
// and a repository URL's host and owner ("https://github.com/curl/curl" is "curl"). The vendor is part
// of the key because product names are often generic ("Desktop", "CMS", "Linux" of Debian): a spelling
// that comes without a vendor (from a description, a repository) joins the vendor's group that has its
// product key, the most used one if several do. A curated table (data/project-aliases.tsv) joins the
// spellings no rule can (MySQL is "Oracle MySQL" in descriptions). Each group is named by its most used
// spelling, preferring what CNAs wrote; every other spelling stays with the project as an alias, for
// search. Groups that end with one name are one project. Deterministic: the same records give the same names.
import { compactKey } from '../core/compact-key.js';
import type { NamingStep } from './project-naming.js';
import { repositoryOf } from './project-naming.js';
import { collapseWhitespace } from './text.js';

export interface NameOccurrence {
  readonly name: string;
  readonly vendor: string | undefined;
  readonly step: NamingStep | 'operator';
}

/** Curated spellings: each alias key (see compactKey) to the project name it stands for. */
export type AliasTable = ReadonlyMap<string, string>;

export interface CanonicalProject {
  readonly name: string;
  /** Every other spelling seen for the project, sorted. */
  readonly aliases: readonly string[];
}

export interface CanonicalNames {
  /** The project name of an occurrence given to canonicalProjects. */
  nameOf(occurrence: NameOccurrence): string;
  readonly projects: readonly CanonicalProject[];
  /**
   * The project of each group of a vendor's spellings, keyed as the curated table keys a vendor-bound
   * spelling (`productKey@vendorKey`): what a later delta's spellings are mapped onto (groupKey).
   */
  readonly groups: ReadonlyMap<string, string>;
}

/** The key of a vendor's group of spellings, as AliasTable keys a vendor-bound spelling; '' without a vendor. */
export function groupKey(name: string, vendor: string | undefined): string {
  const vendorPart = vendorKey(vendor);
  return vendorPart === '' ? '' : `${projectKey(name, vendor)}@${vendorPart}`;
}

const CORPORATE =
  /\b(?:the|inc|incorporated|corp|corporation|co|company|ltd|limited|llc|gmbh|ag|sa|bv|b\.v|se|plc|foundation|software foundation|project|team|organization|group|technologies|technology|systems)\b\.?/g;
const SUFFIX = /\s+(?:kernel|project|software|firmware|unknown)$/;
/**
 * A trailing version ("5.5.53", "v2.1", "6u113", "R19.9", "3.2.11aSG"). A bare number is not one: it is
 * part of too many names (Windows 10, Windows Server 2019, Python 3).
 */
const VERSION_SUFFIX = /\s+(?:v\d+(?:[.\-_]\d+)*[a-z]{0,3}|\d+(?:[.\-_]\d+)+[a-z]{0,3}|\d+u\d+|r\d+(?:\.\d+)*)$/;

/** The grouping key of a vendor: its name without corporate words ("Oracle Corporation" is "oracle"). */
export function vendorKey(vendor: string | undefined): string {
  return compactKey(vendorWords(vendor)?.replace(SUFFIX, '') ?? '');
}

function vendorWords(vendor: string | undefined): string | undefined {
  if (vendor === undefined) return undefined;
  const words = collapseWhitespace(
    vendor
      .toLowerCase()
      .replace(/[™®©]/g, '')
      .replace(CORPORATE, ' ')
      .replace(/[^\p{L}\p{N}]+/gu, ' '),
  );
  return words === '' ? undefined : words;
}

/** The grouping key of a spelling (see the top of this file). */
export function projectKey(name: string, vendor: string | undefined): string {
  const repository = repositoryOf(name);
  let words = collapseWhitespace(
    (repository ? repository.name : name)
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[™®©]/g, '')
      .replace(/\([^)]*\)/g, ' ')
      .replace(/[^\p{L}\p{N}.+]+/gu, ' ')
      .replace(/(?<=\S)\.(?=\s|$)/g, ''),
  );
  words = withoutSuffixes(words);
  // The vendor's name in front goes only when a name is left ("OpenSSL 3.0.7" of OpenSSL is not "3.0.7").
  const prefix = vendorWords(vendor);
  const rest = prefix !== undefined && words.startsWith(`${prefix} `) ? words.slice(prefix.length + 1) : '';
  if (/\p{L}/u.test(rest) && compactKey(rest).length >= 3) words = rest;
  return compactKey(words) || compactKey(name);
}

function withoutSuffixes(words: string): string {
  for (let before = ''; before !== words; ) {
    before = words;
    words = words.replace(SUFFIX, '').replace(VERSION_SUFFIX, '');
  }
  return words;
}

/** How a spelling reads best as a project's name: as CNAs wrote it, a URL as its repository, a CPE token with spaces. */
function displayed(occurrence: NameOccurrence): string {
  return repositoryOf(occurrence.name)?.name ?? occurrence.name;
}

/** Spellings CNAs and operators wrote outrank those read from ADP tokens, repositories and descriptions. */
function authority(step: NameOccurrence['step']): number {
  switch (step) {
    case 'override':
    case 'operator':
      return 3;
    case 'cna-product':
    case 'cna-vendor':
      return 2;
    case 'description':
      return 1;
    default:
      return 0;
  }
}

/** Occurrences that are the same spelling, vendor and step are one, counted: 340,000 records hold about 20,000. */
const identityOf = (occurrence: NameOccurrence) => `${occurrence.name}\u0000${occurrence.vendor ?? '\u0001'}\u0000${occurrence.step}`;

/**
 * The keys an alias table is asked for an occurrence's spelling, in the order they are tried: a
 * vendor-bound spelling by the product key (`productKey@vendorKey`; `productKey@` without a vendor), any
 * other by the spelling itself (version and all, or as displayed, or without its version), never by a
 * key the vendor was cut from ("CRMEB Java" is not Java).
 */
export function aliasKeys(occurrence: NameOccurrence): string[] {
  return [
    `${projectKey(occurrence.name, occurrence.vendor)}@${vendorKey(occurrence.vendor)}`,
    compactKey(occurrence.name),
    compactKey(displayed(occurrence)),
    projectKey(occurrence.name, undefined),
  ];
}

/** Every key an alias table is asked for the spellings of `occurrences` (see aliasKeys). */
export function aliasKeysOf(occurrences: Iterable<NameOccurrence>): Set<string> {
  const keys = new Set<string>();
  const seen = new Set<string>();
  for (const occurrence of occurrences) {
    const identity = identityOf(occurrence);
    if (seen.has(identity)) continue;
    seen.add(identity);
    for (const key of aliasKeys(occurrence)) keys.add(key);
  }
  return keys;
}

export function canonicalProjects(occurrences: Iterable<NameOccurrence>, aliases: AliasTable = new Map()): CanonicalNames {
  const distinct = new Map<string, { occurrence: NameOccurrence; count: number }>();
  for (const occurrence of occurrences) {
    const identity = identityOf(occurrence);
    const seen = distinct.get(identity);
    if (seen) seen.count++;
    else distinct.set(identity, { occurrence, count: 1 });
  }
  const vendorKeyOf = (occurrence: NameOccurrence): string => vendorKey(occurrence.vendor);
  // The product key of each occurrence; `=Name` when the curated table names it (by aliasKeys).
  const productKeyOf = (occurrence: NameOccurrence): string => {
    for (const key of aliasKeys(occurrence)) {
      const curated = aliases.get(key);
      if (curated !== undefined) return `=${curated}`;
    }
    return projectKey(occurrence.name, occurrence.vendor);
  };
  // Which vendors have each product key, and how often: a spelling without a vendor joins the most used.
  const vendorsOfProduct = new Map<string, Map<string, number>>();
  for (const { occurrence, count } of distinct.values()) {
    const product = productKeyOf(occurrence);
    const vendor = vendorKeyOf(occurrence);
    if (vendor === '' || product.startsWith('=')) continue;
    const vendors = vendorsOfProduct.get(product) ?? new Map<string, number>();
    vendors.set(vendor, (vendors.get(vendor) ?? 0) + count);
    vendorsOfProduct.set(product, vendors);
  }
  const keyOf = (occurrence: NameOccurrence): string => {
    const product = productKeyOf(occurrence);
    if (product.startsWith('=')) return product;
    const vendor = vendorKeyOf(occurrence);
    if (vendor !== '') return `${vendor}/${product}`;
    // Without a vendor, a name may start with one ("Oracle VM VirtualBox" in a description): the vendor's
    // group of the rest is the project. Else the most used vendor's group of the product key, if any.
    const words = occurrence.name.toLowerCase().split(/\s+/);
    for (let cut = Math.min(3, words.length - 1); cut >= 1; cut--) {
      const named = compactKey(words.slice(0, cut).join(' '));
      const rest = projectKey(words.slice(cut).join(' '), undefined);
      if (vendorsOfProduct.get(rest)?.has(named)) return `${named}/${rest}`;
    }
    const vendors = [...(vendorsOfProduct.get(product) ?? [])].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
    return `${vendors[0]?.[0] ?? ''}/${product}`;
  };

  const groups = new Map<string, Map<string, { count: number; authority: number }>>();
  const keys = new Map<string, string>();
  for (const [identity, { occurrence, count }] of distinct) {
    const key = keyOf(occurrence);
    keys.set(identity, key);
    let spellings = groups.get(key);
    if (!spellings) {
      spellings = new Map();
      groups.set(key, spellings);
    }
    for (const spelling of new Set([occurrence.name, displayed(occurrence)])) {
      const seen = spellings.get(spelling) ?? { count: 0, authority: -1 };
      // The raw spelling of a URL counts for nothing as a name: only its repository's name can win.
      const counts = spelling === displayed(occurrence);
      spellings.set(spelling, {
        count: seen.count + (counts ? count : 0),
        authority: Math.max(seen.authority, counts ? authority(occurrence.step) : -1),
      });
    }
  }
  // Each group's best spelling; then groups whose best spellings differ only in case and punctuation
  // are one project (a project is its name, as the exact filter sees it), named by the best of them.
  type Spelling = [text: string, rank: { count: number; authority: number }];
  // An edition in brackets ("(Server Core installation)") qualifies a name rather than being one.
  const bracketed = (text: string) => (text.includes('(') ? 1 : 0);
  const better = ([a, x]: Spelling, [b, y]: Spelling) =>
    y.authority - x.authority ||
    bracketed(a) - bracketed(b) ||
    y.count - x.count ||
    capitals(b) - capitals(a) ||
    (a < b ? -1 : a > b ? 1 : 0);
  const byName = new Map<string, { key: string[]; best: Spelling; spellings: Set<string> }>();
  for (const [key, spellings] of groups) {
    const ranked = [...spellings].sort(better);
    const best: Spelling = key.startsWith('=') ? [key.slice(1), { count: Number.MAX_SAFE_INTEGER, authority: 9 }] : ranked[0]!;
    const identity = compactKey(best[0]);
    const project = byName.get(identity);
    if (!project) byName.set(identity, { key: [key], best, spellings: new Set(ranked.map(([text]) => text)) });
    else {
      project.key.push(key);
      if (better(best, project.best) < 0) project.best = best;
      for (const [text] of ranked) project.spellings.add(text);
    }
  }
  const names = new Map<string, string>();
  const projects: CanonicalProject[] = [];
  for (const { key, best, spellings } of byName.values()) {
    const name = best[0];
    for (const each of key) names.set(each, name);
    projects.push({ name, aliases: [...spellings].filter((spelling) => spelling !== name).sort() });
  }
  const projectOfGroup = new Map<string, string>();
  for (const [identity, { occurrence }] of distinct) {
    const group = groupKey(occurrence.name, occurrence.vendor);
    if (group !== '') projectOfGroup.set(group, names.get(keys.get(identity)!)!);
  }
  return {
    nameOf: (occurrence) => names.get(keys.get(identityOf(occurrence)) ?? keyOf(occurrence)) ?? occurrence.name,
    projects: projects.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    groups: projectOfGroup,
  };
}

/** Prefer the spelling with capitals on a tie: "OpenSSL" over the CPE token "openssl". */
function capitals(text: string): number {
  return /\p{Lu}/u.test(text) ? 1 : 0;
}

/**
 * Reads the curated table: `Project name<TAB>spelling<TAB>spelling…` per line, `#` starts a comment.
 * Spellings (and the name itself) are compared by compactKey; `spelling@vendor` applies only to that
 * vendor's products ("kernel@linux" is the Linux kernel, the kernel of OpenBSD is not).
 */
export function parseAliasTable(text: string): Map<string, string> {
  const table = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)#.*$/, '').trimEnd();
    if (line.trim() === '') continue;
    const [name = '', ...spellings] = line.split('\t').map((part) => collapseWhitespace(part));
    for (const spelling of [name, ...spellings]) {
      if (spelling === '') continue;
      const at = spelling.lastIndexOf('@');
      table.set(
        at > 0 ? `${projectKey(spelling.slice(0, at), undefined)}@${vendorKey(spelling.slice(at + 1))}` : compactKey(spelling),
        name,
      );
    }
  }
  return table;
}
