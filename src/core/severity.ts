// The highest CVSS severity of a record: what its details show and what the `severity` filter selects on.
import { type CvssMetric, SEVERITIES, type Severity } from '../contract/index.js';

/** The code of a record with no CVSS metric in a severity column (other codes index SEVERITIES). */
export const NO_SEVERITY = 255;

/** The highest severity of a record's CVSS metrics, whoever gave them, as an index into SEVERITIES; NO_SEVERITY without any. */
export function highestSeverityCode(metrics: readonly CvssMetric[]): number {
  let best = NO_SEVERITY;
  for (const metric of metrics) best = Math.min(best, SEVERITIES.indexOf(metric.severity));
  return best;
}

/** The highest severity of a record's CVSS metrics; null without any. */
export function highestSeverity(metrics: readonly CvssMetric[]): Severity | null {
  return severityOfCode(highestSeverityCode(metrics));
}

/** The severity a code of a severity column stands for; null for NO_SEVERITY. */
export function severityOfCode(code: number): Severity | null {
  return code === NO_SEVERITY ? null : SEVERITIES[code]!;
}
