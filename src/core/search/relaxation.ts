// Filters that explain themselves: when the severity, time, year, exploitation or weakness words of a
// question leave no record, the nearest answer is shown instead, and the reading says which word gave
// way ("no record with severity critical: showing severity high"), a version last. One filter gives way at a time, the
// one that says least about the topic first; status words never do, since "not yet public" that finds
// nothing is itself the answer.
import { SEVERITIES, type Severity } from '../../contract/index.js';
import type { QueryUnderstanding } from './query-understanding.js';
import { describeDays } from './time-words.js';

export interface Relaxation {
  readonly understanding: QueryUnderstanding;
  /** What gave way, for the reading shown to the caller. */
  readonly reading: string;
}

/** The severities one band away from those asked for, added to them, in SEVERITIES order. */
function widened(severities: readonly Severity[]): Severity[] {
  const codes = new Set(severities.map((severity) => SEVERITIES.indexOf(severity)));
  for (const code of [...codes]) {
    if (code > 0) codes.add(code - 1);
    if (code < SEVERITIES.length - 2) codes.add(code + 1); // never to `none`: a record without a score is no nearer
  }
  return SEVERITIES.filter((_, code) => codes.has(code));
}

/**
 * The next reading to try when `understanding` leaves no record, or undefined when nothing can give way.
 * A filter gives way only while something else says what the question is about: "cwe-9999" alone that
 * finds nothing is answered with nothing, not with every record.
 */
export function relax(understanding: QueryUnderstanding): Relaxation | undefined {
  const relaxed = nextRelaxation(understanding);
  return relaxed && asksSomething(relaxed.understanding) ? relaxed : undefined;
}

function asksSomething({ terms, statuses, years, published, severities, kev, cwes, version }: QueryUnderstanding): boolean {
  return (
    version !== undefined ||
    terms.length > 0 ||
    statuses.length > 0 ||
    years !== undefined ||
    published !== undefined ||
    severities !== undefined ||
    kev !== undefined ||
    cwes.length > 0
  );
}

function nextRelaxation(understanding: QueryUnderstanding): Relaxation | undefined {
  const { severities, published, years, kev, cwes, version } = understanding;
  if (severities !== undefined && severities.length > 0) {
    const wider = widened(severities);
    if (wider.length > severities.length) {
      const added = wider.filter((severity) => !severities.includes(severity));
      return {
        understanding: { ...understanding, severities: wider },
        reading: `no record with severity ${severities.join(' or ')}: showing severity ${added.join(' or ')} too`,
      };
    }
  }
  if (severities !== undefined) {
    return { understanding: { ...understanding, severities: undefined }, reading: 'no record with that severity: showing any severity' };
  }
  if (published !== undefined) {
    return { understanding: { ...understanding, published: undefined }, reading: `no record ${describeDays(published)}: showing any date` };
  }
  if (years !== undefined) {
    return { understanding: { ...understanding, years: undefined }, reading: 'no record of those years: showing any year' };
  }
  if (kev !== undefined) {
    const which = kev ? 'known exploited (in CISA KEV)' : 'outside CISA KEV';
    return { understanding: { ...understanding, kev: undefined }, reading: `no record ${which}: showing records whether exploited or not` };
  }
  if (cwes.length > 0) {
    return { understanding: { ...understanding, cwes: [] }, reading: `no record names ${cwes.join(' or ')}: showing any weakness` };
  }
  // Last: the version is the most exact thing asked, and its records are the answer when there are any.
  if (version !== undefined) {
    return {
      understanding: { ...understanding, version: undefined },
      reading: `no record says version ${version} is affected: showing any version`,
    };
  }
  return undefined;
}
