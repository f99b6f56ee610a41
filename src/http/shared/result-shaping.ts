import type { NlwebItem, NlwebResult, NlwebSchemaObject } from '../../contract/index.js';
import type { SearchHit } from '../../core/search/search.js';
import { PATHS, recordPagePath } from './paths.js';

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

/** The result as NLWeb UIs render it: with `description` and the record as a schema.org object. */
export function toNlwebItem(hit: SearchHit, baseUrl: string, site: string): NlwebItem {
  const result = toNlwebResult(hit, baseUrl, site);
  const { record, published, modified } = hit.entry;
  const schemaObject: NlwebSchemaObject = {
    '@context': 'https://schema.org',
    '@type': 'CreativeWork',
    '@id': `${baseUrl}${PATHS.records}/${record.id}`,
    identifier: record.id,
    name: record.id,
    url: record.url ?? `${baseUrl}${recordPagePath(record.id)}`,
    description: result.snippet,
    about: { '@type': 'SoftwareApplication', name: record.project },
    creativeWorkStatus: record.status,
    ...(published ? { datePublished: published } : {}),
    ...(modified ? { dateModified: modified } : {}),
  };
  return { ...result, description: result.snippet, schema_object: schemaObject };
}

function describeRecord(id: string, project: string, status: string, published: string | undefined): string {
  if (status === 'public') return `${id} is a public CVE record for ${project}${published ? `, published ${published}` : ''}.`;
  return `${id} is assigned to ${project} and cleared, but has no public record yet.`;
}
