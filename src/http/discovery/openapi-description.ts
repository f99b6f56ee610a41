// The prose of the OpenAPI document: enough to read it as the API reference.

import type { ServiceConfig } from '../../config.js';
import { BATCH_MAX_IDS, type ErrorCode, errorCatalog, PAGE_LIMIT } from '../../contract/index.js';
import { PATHS } from '../shared/paths.js';

export function apiDescription(config: ServiceConfig): string {
  const { max, windowSeconds } = config.rateLimit;
  const errorRows = (Object.keys(errorCatalog) as ErrorCode[])
    .map((code) => `| \`${code}\` | ${errorCatalog[code].status} | ${errorCatalog[code].message} |`)
    .join('\n');
  return `Read-only public service for cleared CVE records: list, get, batch get and natural-language search.

**Boundary.** Every operation is read-only and needs no credential. The public interface cannot start
assessments, interact with targets, read private workspaces or spend credits. Assessment execution takes place
in a separate local runtime, outside this interface. Public access to records is not authorization for
security testing.

**Ordering and paging.** Records are listed newest first: by year, then by sequence number, both compared as
numbers. Pages hold ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max} records (default ${PAGE_LIMIT.default}). Pass
\`pagination.nextCursor\` as \`cursor\`, with the same filters, until it is null. Cursors are opaque, keyset-based
(a deep page costs what the first one does) and bound to the filters they were issued for.

**Batch.** Up to ${BATCH_MAX_IDS} unique identifiers per call; \`records\` and \`missing\` keep the request order.

**Errors.** Every error is \`application/json\` in one shape, \`{"error": {"code", "message", "details"?}, "requestId"}\`.
Do not retry a 400 or 404 without changing the request. The codes:

| code | status | meaning |
| --- | --- | --- |
${errorRows}

${max > 0 ? limitParagraph(max, windowSeconds) : NO_LIMIT_PARAGRAPH}
**Cross-origin.** Every origin may call the API (\`Access-Control-Allow-Origin: *\`); credentials are never
accepted.

**Versioning.** The major version is in the path (\`/api/v1\`). Compatible fields and operations may be added
within v1; breaking changes get a new major version. A deprecation is announced at least 90 days before a
sunset, with \`Deprecation\`, \`Sunset\` and \`Link\` headers; v1 is active. Policy: ${config.baseUrl}${PATHS.lifecyclePolicy}.

**Discovery.** API catalog (RFC 9727): ${config.baseUrl}${PATHS.apiCatalog}.`;
}

/** The operator turned the limit off (max 0): no RateLimit headers are sent. */
const NO_LIMIT_PARAGRAPH = `**Rate limit.** None of this service's own; a gateway in front of it may limit requests. A 429 carries
\`Retry-After\` (seconds): wait that long.
`;

function limitParagraph(max: number, windowSeconds: number): string {
  return `**Rate limit.** ${max} requests per ${windowSeconds}-second window for each connecting address, over all
public requests. Responses carry \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\` (seconds),
\`RateLimit-Policy\` (\`"default";q=${max};w=${windowSeconds}\`) and \`RateLimit\`
(\`"default";r=<remaining>;t=<seconds until more are allowed>\`), the last two as draft-ietf-httpapi-ratelimit-headers-10
writes them; a 429 also carries \`Retry-After\` (seconds): wait that long.
`;
}
