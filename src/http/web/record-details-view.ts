// What a record page shows of a record's details: how severe (the highest CVSS score, and every score with
// its vector and source), whether it is known exploited (CISA KEV) and how SSVC rates it, its weaknesses
// (CWE), the affected products and versions, and the references. Rows of the record's definition list,
// each left out when the record says nothing of it. The severity and KEV badges are the results tables' too.
import type { CveRecordDetails, Severity } from '../../contract/index.js';
import { type Html, html } from './html.js';
import { publicRecordLink, severityLabel } from './record-view.js';

/** Affected products and references listed at most: a record may name hundreds. */
const SHOWN = 25;

export function severityBadge(severity: Severity): Html {
  return html`<span class="severity severity-${severity}">${severityLabel(severity)}</span>`;
}

export function kevBadge(): Html {
  return html`<span class="kev">Known exploited</span>`;
}

export function detailRows(details: CveRecordDetails): Html {
  const best = details.metrics.find((metric) => metric.severity === details.severity);
  const source = (s: { container: string; shortName: string | null }) => s.shortName ?? s.container.toUpperCase();
  return html`${details.title ? html`<dt>Title</dt><dd>${details.title}</dd>` : ''}
${
  details.severity && best
    ? html`<dt>Severity</dt><dd>${severityBadge(details.severity)} CVSS ${best.version} base score ${best.baseScore}, from ${source(best.source)}</dd>`
    : ''
}
${
  details.kev
    ? html`<dt>Exploitation</dt><dd>${kevBadge()} Listed in CISA's Known Exploited Vulnerabilities catalog since <time datetime="${details.kev.dateAdded}">${details.kev.dateAdded}</time>${
        details.kev.reference ? html` (${publicRecordLink(details.kev.reference, 'entry')})` : ''
      }</dd>`
    : ''
}
${
  details.ssvc
    ? html`<dt>SSVC</dt><dd>Exploitation ${details.ssvc.exploitation ?? 'unknown'}, automatable ${details.ssvc.automatable ?? 'unknown'}, technical impact ${details.ssvc.technicalImpact ?? 'unknown'} (${source(details.ssvc.source)})</dd>`
    : ''
}
${
  details.metrics.length > 0
    ? html`<dt>CVSS</dt><dd><ul class="detail-list">${details.metrics.map(
        (metric) =>
          html`<li>${metric.version} · ${metric.baseScore} ${severityBadge(metric.severity)} · ${source(metric.source)}<br><code class="vector">${metric.vector}</code></li>`,
      )}</ul></dd>`
    : ''
}
${
  details.problemTypes.length > 0
    ? html`<dt>Weaknesses</dt><dd><ul class="detail-list">${details.problemTypes.map((problem) => html`<li>${problem.description} (${source(problem.source)})</li>`)}</ul></dd>`
    : ''
}
${
  details.affected.length > 0
    ? html`<dt>Affected</dt><dd><ul class="detail-list">${details.affected.slice(0, SHOWN).map((product) => {
        const name = [product.vendor, product.product ?? product.packageName].filter(Boolean).join(' ');
        return html`<li><bdi>${name || 'Unnamed product'}</bdi>${product.versions ? html`: ${product.versions}` : ''}</li>`;
      })}${more(details.affected.length)}</ul></dd>`
    : ''
}
${
  details.references.length > 0
    ? html`<dt>References</dt><dd><ul class="detail-list">${details.references
        .slice(0, SHOWN)
        .map(
          (reference) =>
            html`<li>${publicRecordLink(reference.url, reference.name ?? reference.url)}${reference.tags.length ? html` <span class="tags">${reference.tags.join(', ')}</span>` : ''}</li>`,
        )}${more(details.references.length)}</ul></dd>`
    : ''
}`;
}

function more(count: number): Html | string {
  return count > SHOWN ? html`<li>and ${count - SHOWN} more (see the JSON)</li>` : '';
}
