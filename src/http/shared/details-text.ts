// A record's details as a few lines of text, for the agent surfaces whose answers are read by a model or
// a person rather than parsed: the description, then how severe, whether exploited, which weakness, what
// is affected. The structured details travel beside it wherever the answer has room for them.
import type { CveRecordDetails } from '../../contract/index.js';

/** Products named in the text at most: a record may list hundreds. */
const SHOWN_PRODUCTS = 5;

/** `summary`: what to say when the catalog holds no description (a catalog without details). */
export function detailsText(details: CveRecordDetails, summary: string | undefined): string {
  const lines: string[] = [];
  if (details.title) lines.push(details.title);
  const fallback = details.status === 'public' ? 'No description.' : 'The id is assigned; no record is public yet.';
  lines.push(details.description ?? summary ?? fallback);
  const facts: string[] = [];
  const best = details.metrics.find((metric) => metric.severity === details.severity);
  if (details.severity && best) {
    facts.push(`Severity ${details.severity} (CVSS ${best.version} ${best.baseScore}, ${best.source.shortName ?? best.source.container})`);
  }
  if (details.kev) facts.push(`Known exploited (CISA KEV since ${details.kev.dateAdded})`);
  if (details.ssvc?.exploitation) facts.push(`SSVC exploitation: ${details.ssvc.exploitation}`);
  const weaknesses = [...new Set(details.problemTypes.map((problem) => problem.cweId ?? problem.description))];
  if (weaknesses.length > 0) facts.push(`Weakness: ${weaknesses.join(', ')}`);
  if (facts.length > 0) lines.push(facts.join('. ').concat('.'));
  const products = details.affected.slice(0, SHOWN_PRODUCTS).map((product) => {
    const name = [product.vendor, product.product ?? product.packageName].filter(Boolean).join(' ');
    return product.versions ? `${name}: ${product.versions}` : name;
  });
  if (products.length > 0) {
    const more = details.affected.length - products.length;
    lines.push(`Affected: ${products.join('; ')}${more > 0 ? `; and ${more} more` : ''}.`);
  }
  return lines.join('\n');
}
