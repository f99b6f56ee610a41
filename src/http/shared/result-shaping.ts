import type { NlwebResult } from '../../contract/index.js';
import type { SearchHit } from '../../core/search/search.js';
import { PATHS } from './paths.js';

/** One search hit as an NLWeb result. A record with no public URL links to this service's own. */
export function toNlwebResult(hit: SearchHit, baseUrl: string, site: string): NlwebResult {
  const { record, summary, published } = hit.entry;
  return {
    url: record.url ?? `${baseUrl}${PATHS.records}/${record.id}`,
    name: `${record.id} (${record.project})`,
    site,
    score: hit.score,
    snippet: summary ?? describeRecord(record.id, record.project, record.status, published),
  };
}

function describeRecord(id: string, project: string, status: string, published: string | undefined): string {
  if (status === 'public') return `${id} is a public CVE record for ${project}${published ? `, published ${published}` : ''}.`;
  return `${id} is assigned to ${project} and cleared, but has no public record yet.`;
}
