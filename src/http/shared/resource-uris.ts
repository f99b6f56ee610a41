// The URIs of the MCP resources, a record and a project: stable, documented (docs/AGENTS.md, /llms.txt),
// and built one way only, here. A record's is its CVE id; a project's is its name percent-encoded as an
// RFC 6570 simple expansion (every byte but A-Z a-z 0-9 - . _ ~), so a client that expands the advertised
// template gets the very string a change notification names.
const RECORD_PREFIX = 'cve-records://records/';
const PROJECT_PREFIX = 'cve-records://projects/';
export const RECORD_URI_TEMPLATE = `${RECORD_PREFIX}{recordId}`;
export const PROJECT_URI_TEMPLATE = `${PROJECT_PREFIX}{project}`;

export function recordUri(id: string): string {
  return RECORD_PREFIX + id;
}

export function projectUri(project: string): string {
  // encodeURIComponent leaves ! ' ( ) * as they are; RFC 6570 (and the SDK's template match, which stops
  // at a comma) wants them encoded too.
  return PROJECT_PREFIX + encodeURIComponent(project).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
