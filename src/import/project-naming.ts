// Which project a published CVE record is about, read from the record through a documented cascade
// (docs/OPERATIONS.md, "Project names"), each step tried only when every earlier one named nothing:
//
//   1. override         the operator's override map
//   2. cna-product      a CNA affected entry's product or packageName
//   3. cna-vendor       a CNA affected entry's vendor
//   4. adp-product      an ADP container's affected product (CISA-ADP names products by CPE token)
//   5. repository       the code-host repository the references point at most (github.com/owner/repo, …)
//   6. description      the subject the English description names ("In LuaJIT through 2.0.5", "… in the Linux kernel")
//   7. placeholder      PLACEHOLDER_PROJECT, when nothing names one
//
// Placeholder values ("n/a", "unknown", "unspecified", "-", …) name nothing at any step. Pure: no I/O.
import { collapseWhitespace } from './text.js';

export const NAMING_STEPS = ['override', 'cna-product', 'cna-vendor', 'adp-product', 'repository', 'description', 'placeholder'] as const;
export type NamingStep = (typeof NAMING_STEPS)[number];

/** The name of the records no step could name. */
export const PLACEHOLDER_PROJECT = 'Unnamed project';

export interface ProjectName {
  readonly name: string;
  readonly step: NamingStep;
  /** The vendor the name came with, when the record gives one: it tells a vendor prefix from a name. */
  readonly vendor: string | undefined;
}

type Json = Record<string, unknown>;

const PLACEHOLDER_WORD = String.raw`(?:n/?a|n\.a\.?|none|null|nil|unknown|unspecified|not applicable|not specified|tbd|other|various|multiple|all|-+|\*|\?+|\.)`;
const PLACEHOLDER = new RegExp(String.raw`^(?:${PLACEHOLDER_WORD}(?:[\s/,]+${PLACEHOLDER_WORD})*)?$`, 'i');

/** The name, cleaned, when it names something; undefined for a placeholder or anything not a string. */
export function usableName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const name = collapseWhitespace(value.normalize('NFKC'));
  return PLACEHOLDER.test(name) ? undefined : name;
}

function objects(value: unknown): Json[] {
  return Array.isArray(value)
    ? value.filter((item): item is Json => typeof item === 'object' && item !== null && !Array.isArray(item))
    : [];
}

/** The first entry naming a product (or package), else the first naming a vendor, as the steps need them. */
function fromAffected(entries: readonly Json[]): { product?: ProjectName['name']; productVendor?: string; vendor?: string } {
  for (const entry of entries) {
    const product = usableName(entry.product) ?? usableName(entry.packageName);
    if (product !== undefined) return { product, productVendor: usableName(entry.vendor) };
  }
  for (const entry of entries) {
    const vendor = usableName(entry.vendor);
    if (vendor !== undefined) return { vendor };
  }
  return {};
}

/** CISA-ADP writes products as CPE tokens (`linux_kernel`, `ax1806_firmware`): shown with spaces. */
function fromCpeToken(name: string): string {
  return /^[a-z0-9._+-]+$/.test(name) && name.includes('_') ? name.replace(/_/g, ' ') : name;
}

const CODE_HOST = /^https?:\/\/(?:www\.)?(github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)\/([^/?#\s]+)\/([^/?#\s]+)/i;
/** Path segments of a code host that are not owners (github.com/advisories/GHSA-…). */
const NOT_AN_OWNER =
  /^(?:advisories|orgs|topics|marketplace|sponsors|settings|features|about|search|collections|explore|users|login|security|site|pricing|enterprise|apps)$/i;

/** The repository (`owner/name`) a URL is on, when it is on a code host. */
export function repositoryOf(url: string): { owner: string; name: string } | undefined {
  const match = CODE_HOST.exec(url);
  if (!match) return undefined;
  const [, , owner = '', repository = ''] = match;
  const name = repository.replace(/\.git$/i, '');
  if (NOT_AN_OWNER.test(owner) || name === '' || name === '-') return undefined;
  return { owner, name };
}

/** The repository the record's references and affected entries point at most often (first seen on a tie). */
function mostReferencedRepository(containers: readonly Json[]): string | undefined {
  const counts = new Map<string, { name: string; count: number }>();
  const count = (url: unknown) => {
    if (typeof url !== 'string') return;
    const repository = repositoryOf(url);
    if (!repository) return;
    const key = `${repository.owner}/${repository.name}`.toLowerCase();
    const seen = counts.get(key);
    if (seen) seen.count++;
    else counts.set(key, { name: repository.name, count: 1 });
  };
  for (const container of containers) {
    for (const reference of objects(container.references)) count(reference.url);
    for (const entry of objects(container.affected)) {
      count(entry.repo);
      count(entry.collectionURL);
    }
  }
  let best: { name: string; count: number } | undefined;
  for (const candidate of counts.values()) if (!best || candidate.count > best.count) best = candidate;
  return best?.name;
}

export function nameProject(cna: Json, adp: readonly Json[], description: string | undefined, override: string | undefined): ProjectName {
  const overridden = usableName(override);
  if (overridden !== undefined) return { name: overridden, step: 'override', vendor: undefined };
  const own = fromAffected(objects(cna.affected));
  if (own.product !== undefined) return { name: own.product, step: 'cna-product', vendor: own.productVendor };
  if (own.vendor !== undefined) return { name: own.vendor, step: 'cna-vendor', vendor: undefined };
  const added = fromAffected(adp.flatMap((container) => objects(container.affected)));
  const adpName = added.product ?? added.vendor;
  if (adpName !== undefined) return { name: fromCpeToken(adpName), step: 'adp-product', vendor: added.productVendor };
  const repository = mostReferencedRepository([cna, ...adp]);
  if (repository !== undefined) return { name: repository, step: 'repository', vendor: undefined };
  const subject = description === undefined ? undefined : subjectOf(description);
  if (subject !== undefined) return { name: subject, step: 'description', vendor: undefined };
  return { name: PLACEHOLDER_PROJECT, step: 'placeholder', vendor: undefined };
}

// The subject of an English description. A name is one to six words, each starting with a letter or a
// digit, with no slash (so a file path is never a name), and never a verb or preposition; a version
// cue (a number, "before", "through") or a verb ("allows") must follow it, which is what makes the
// words before it a product name rather than any phrase.
const WORD = String.raw`[A-Za-z0-9](?:[\w+\-!]|\.(?=\w))*(?:\s\([A-Za-z0-9][\w.+\- ]{0,24}\))?`;
const NOT_A_NAME_WORD = String.raw`(?!(?:allows?|is|was|were|are|has|have|had|does|did|could|can|may|might|via|when|which|that|and|or|to|for|of|on|in|with|before|through|prior|up|versions?|v\d|SP\d|Gold|devices?)\b)`;
const NAME = String.raw`(${NOT_A_NAME_WORD}${WORD}(?:\s+${NOT_A_NAME_WORD}${WORD}){0,5}?)`;
/** A name in capitals ("Cisco Webex Meetings"), for rules whose cue alone would also fit a phrase. */
const CAPITAL_WORD = String.raw`[A-Z0-9][\w+\-!]*(?:\.(?=\w)[\w+\-!]*)*(?:\s\([A-Za-z0-9][\w.+\- ]{0,24}\))?`;
const CAPITAL_NAME = String.raw`((?:${NOT_A_NAME_WORD}${CAPITAL_WORD}\s+){0,5}${NOT_A_NAME_WORD}${CAPITAL_WORD})`;
const VERSION_CUE = String.raw`(?:,?\s+(?:before|through|prior to|up to|<=?\s?\d|versions?\s+[A-Za-z]{0,3}\d|v\.?\s?\d|\d+(?:\.\d+)+|\d+[a-z]?\b(?=\s+(?:and|through|before|allows?|is|was|has|does|could|,|\())|r\d|build\s+\d|SP\d|Gold\b))`;
const VERB = String.raw`(?:\s+devices?)?\s+(?:allows?|could allow|could|does not|did not|do not|uses|used|fails|stores|contains|has an?|is vulnerable|is affected|suffers|permits|lets|exposes|discloses|mishandles|was discovered)\b`;
const AFTER_NAME = String.raw`(?:${VERB}|\s+(?:could|when|via|that|which|where|if|because|by|before|prior|through|up to)\b|[.,;:]|\s*$)`;

const SUBJECT_RULES: readonly [RegExp, (match: RegExpExecArray) => string][] = [
  [/\bthe Linux kernel\b/i, () => 'Linux kernel'],
  [new RegExp(String.raw`^In\s+(?:the\s+)?${NAME}${VERSION_CUE}`), (m) => m[1]!],
  [/^Unspecified vulnerability in the (Oracle [A-Z][\w.\- ]{2,60}?) component\b/, (m) => m[1]!],
  [/\bcomponent of (Oracle [A-Z][\w.\- ]{2,60}?)\s*(?:\(|\.|,)/, (m) => m[1]!],
  [new RegExp(String.raw`\bcomponent\s+(?:in|of)\s+(?:the\s+)?${NAME}${VERSION_CUE}`), (m) => m[1]!],
  [new RegExp(String.raw`\b(?:in|on|of|for)\s+(?:the\s+)?${NAME}${VERSION_CUE}`), (m) => m[1]!],
  [new RegExp(String.raw`^(?:The\s+|Certain\s+)?${NAME}${VERSION_CUE}`), (m) => m[1]!],
  [
    new RegExp(
      String.raw`^(?:A|An|There is an?)\s+(?:[\w-]+\s+){0,5}(?:vulnerability|issue|flaw|weakness|bug)\s+(?:(?:was|has been)\s+\w+\s+|exists\s+)?(?:in|on|of)\s+(?:the\s+)?${NAME}(?:\s+(?:could|allows?|that|which|when|where|via)\b|,|\.)`,
    ),
    (m) => m[1]!,
  ],
  [new RegExp(String.raw`^(?:Certain\s+)?${CAPITAL_NAME}(?:\s+(?:products?|devices?|app|application))?${VERB}`), (m) => m[1]!],
  [
    new RegExp(
      String.raw`^The\s+(${WORD}(?:\s+${WORD}){0,3}?)\s+(?:package|plugin|module|extension|library|gem|crate|theme|app|application)\b`,
    ),
    (m) => m[1]!,
  ],
  [new RegExp(String.raw`\b(?:in|of|on)\s+(?:the\s+)?${CAPITAL_NAME}${AFTER_NAME}`), (m) => m[1]!],
  [new RegExp(String.raw`\b(?:in|of)\s+(?:the\s+)?${NAME}${VERB}`), (m) => m[1]!],
];

const TRAILING_KIND =
  /\s+(?:component|software|application|app|product|firmware|devices?|plugin|package|module|extension|library|gem|crate|theme)$/i;
/** What a rule may capture that is no project name. */
const NOT_A_SUBJECT =
  /^(?:versions?|v|unspecified|multiple|certain|all|some|this|it|an?|the|issues?|vulnerabilit(?:y|ies)|function|file|parameter|component|\d[\d.]*)$|\b(?:port|ports|packets?|object|memory|pointer|device|traffic|users?|attackers?|data|releases?|line|requests?|field|value|buffer|string|header|input|argument|CVSS|A|An|The|This|It|There|When|Improper|Insufficient|Multiple|Cross|Missing|Incorrect|Use|use|Version|version|overflow|scanning|code|function|functions|parameter|parameters|file|files|page|pages|module)$/;

/** The product a description names, by the first rule that matches (or undefined). */
export function subjectOf(description: string): string | undefined {
  const text = collapseWhitespace(description);
  for (const [rule, pick] of SUBJECT_RULES) {
    const match = rule.exec(text);
    if (!match) continue;
    const name = pick(match)
      .replace(/^(\S+)\s+\1\b/i, '$1')
      .replace(/^(?:the|a|an)\s+/i, '')
      .replace(/[\s,.:;]+$/, '')
      .replace(TRAILING_KIND, '');
    if (name !== '' && name.length <= 60 && !NOT_A_SUBJECT.test(name)) return name;
  }
  return undefined;
}
