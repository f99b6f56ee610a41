// The phrases of a query that ask how dangerous a record is: its highest CVSS severity ("critical",
// "high severity", "cvss 9"), whether it is known to be exploited ("actively exploited", "in KEV"), and
// the weakness it names ("CWE-79"). Read by fixed rules, like the year and status words beside them in
// query-understanding.ts, so each reading can be shown to the caller.
import { SEVERITIES, type Severity } from '../../contract/index.js';

/** A CWE id in any spelling: `CWE-79`, `cwe 79`, `CWE_79`, `cwe79`. */
export const CWE_SPELLING = /\bcwe[\s_-]*(\d{1,5})(?![0-9a-z])/gi;

/**
 * A CVSS score bound: `cvss 9`, `CVSS >= 7.5`, `cvss score above 8`, `cvss 9+`. Read on the raw text,
 * since cutting it into words would split `7.5` in two. A pasted vector (`CVSS:3.1/AV:N…`) is no bound.
 */
export const CVSS_SPELLING =
  /\bcvss(?:\s*(?:base\s*)?score)?\s*(?:>=|≥|>|=|:|of|above|over|at\s+least|from)?\s*(10(?:\.0)?|\d(?:\.\d)?)\s*\+?(?![0-9./])/gi;

/** Words naming a severity; every one but "critical" names it only beside a severity noun ("high severity"). */
const SEVERITY_WORDS: ReadonlyMap<string, Severity> = new Map([
  ['critical', 'critical'],
  ['high', 'high'],
  ['important', 'high'],
  ['medium', 'medium'],
  ['moderate', 'medium'],
  ['low', 'low'],
]);
const SEVERITY_NOUNS = new Set(['severity', 'severities', 'risk', 'rated', 'rating']);
const SEVERITY_JOINERS = new Set(['or', 'and']);

const NEGATIONS = new Set(['not', 'no', 'non', 'never']);
const EXPLOITED_LEADS = new Set(['actively', 'known', 'being', 'been', 'currently']);

/** The lowest score of each severity's CVSS band, in SEVERITIES order (v3 and v4 bands; v2 has no critical). */
const BAND_FLOORS: Readonly<Record<Severity, number>> = { critical: 9, high: 7, medium: 4, low: 0.1, none: 0 };

export interface SeverityPhrase {
  readonly length: number;
  readonly severities: readonly Severity[];
}

/**
 * A severity phrase starting at `i`: severity words joined by "or"/"and", standing alone only when one
 * of them is "critical" ("high" alone is too often an ordinary word), else led or followed by a noun
 * such as "severity" ("high severity", "severity: medium or low", "rated important").
 */
export function severityPhrase(tokens: readonly string[], i: number): SeverityPhrase | undefined {
  let j = i;
  const led = SEVERITY_NOUNS.has(tokens[j] ?? '');
  if (led) j++;
  const severities: Severity[] = [];
  for (;;) {
    const severity = SEVERITY_WORDS.get(tokens[j] ?? '');
    if (!severity) break;
    if (!severities.includes(severity)) severities.push(severity);
    j++;
    if (SEVERITY_JOINERS.has(tokens[j] ?? '') && SEVERITY_WORDS.has(tokens[j + 1] ?? '')) j++;
    else break;
  }
  if (severities.length === 0) return undefined;
  const followed = SEVERITY_NOUNS.has(tokens[j] ?? '');
  if (followed) j++;
  if (!led && !followed && !severities.includes('critical')) return undefined;
  return { length: j - i, severities };
}

export interface ExploitationPhrase {
  readonly length: number;
  /** Whether the records asked for are in CISA's KEV catalog. */
  readonly kev: boolean;
}

/**
 * A phrase about exploitation starting at `i`: "kev", "in (CISA) KEV (catalog)", "(actively) exploited
 * (in the wild)", "known exploited", each negated by a leading "not"/"no"/"never". Known exploitation
 * is what CISA's KEV catalog records, so all of them select on it.
 */
export function exploitationPhrase(tokens: readonly string[], i: number): ExploitationPhrase | undefined {
  const negated = NEGATIONS.has(tokens[i] ?? '');
  const start = negated ? i + 1 : i;
  let j = start;
  if (tokens[j] === 'in' || tokens[j] === 'on') j++;
  if (tokens[j] === 'cisa') j++;
  if (tokens[j] === 'kev') {
    j++;
    if (tokens[j] === 'catalog' || tokens[j] === 'list') j++;
    return { length: j - i, kev: !negated };
  }
  j = start;
  while (EXPLOITED_LEADS.has(tokens[j] ?? '')) j++;
  if (tokens[j] !== 'exploited') return undefined;
  j++;
  if (tokens[j] === 'in' && tokens[j + 1] === 'the' && tokens[j + 2] === 'wild') j += 3;
  return { length: j - i, kev: !negated };
}

/** The severities whose band reaches a score: a record's highest severity is what is indexed, not its score. */
export function severitiesReaching(score: number): Severity[] {
  return SEVERITIES.filter((severity) => {
    const next = SEVERITIES[SEVERITIES.indexOf(severity) - 1];
    const top = next === undefined ? 10 : BAND_FLOORS[next] - 0.1;
    return score <= Math.max(top, BAND_FLOORS[severity]);
  });
}

/** Canonical spelling of a CWE id read from a query. */
export function cweId(digits: string): string {
  return `CWE-${Number(digits)}`;
}
