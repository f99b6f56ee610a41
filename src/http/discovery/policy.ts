// The public API lifecycle policy, served as Markdown (PATHS.lifecyclePolicy). The status of v1 comes from the
// same lifecycle settings that drive the Deprecation and Sunset headers.
import type { ServiceConfig } from '../../config.js';
import { PATHS } from '../shared/paths.js';

export function lifecyclePolicy(config: ServiceConfig): string {
  const { deprecation, sunset, successor } = config.lifecycle;
  const { max, windowSeconds } = config.rateLimit;
  const status = deprecation
    ? [
        `- v1 is **deprecated** since ${deprecation.toISOString().slice(0, 10)}.`,
        sunset ? `- v1 will be **shut down** on ${sunset.toUTCString()}.` : '- No shutdown date is scheduled yet.',
        successor ? `- Its successor is ${successor}.` : '- Its successor will be announced here.',
      ].join('\n')
    : '- v1 is **active**. No version is deprecated.';
  return `# Public CVE Records API: lifecycle policy

## Current status

${status}

## Versions

- The major version is part of the path: \`${config.baseUrl}${PATHS.apiPrefix}\`.
- Within a major version only compatible changes are made: new optional fields, new operations, new error
  codes for new situations. Clients must ignore fields they do not know.
- A breaking change ships as a new major version, served beside the old one.

## Deprecation and sunset

- Before a version is retired, a deprecation notice is published here, naming the successor version.
- At least **90 days** separate the notice and the sunset. Every operation carries lifecycle status \`active\`
  and a minimum sunset notice of 90 days (\`x-lifecycle\` in the OpenAPI document).
- Once a version is deprecated, each successful response of it carries:
  - \`Deprecation: @<epoch seconds>\`: the deprecation date (RFC 9745);
  - \`Sunset: <HTTP-date>\`: the shutdown time, once one is scheduled (RFC 8594);
  - \`Link: <${config.baseUrl}${PATHS.lifecyclePolicy}>; rel="deprecation"\`, and \`rel="successor-version"\` when known.
- Before deprecation none of these headers is sent.

## Rate limit

${max > 0 ? limitSection(max, windowSeconds) : NO_LIMIT_SECTION}
## Caching

Records, capabilities, the sandbox and the documents of the service carry a strong \`ETag\` and
\`Cache-Control: public, max-age=${config.cacheMaxAgeSeconds}\`; send the ETag back in \`If-None-Match\` and an
unchanged answer is 304 with no body (it still counts against the limit). ETags change whenever the
dataset or the representation does. Health, batch, search and every error are \`no-store\`.

## Contract

The contract is the OpenAPI 3.1 document at ${config.baseUrl}${PATHS.openapi}, listed in the API catalog at
${config.baseUrl}${PATHS.apiCatalog}.
`;
}

/** The operator turned the limit off (max 0), as when a gateway in front enforces one: no RateLimit headers are sent. */
const NO_LIMIT_SECTION = `This service sets no request limit of its own and sends no \`RateLimit\` headers; a gateway in front of it
may limit requests. A 429 carries \`Retry-After\` in seconds. Wait that long before retrying.
`;

function limitSection(max: number, windowSeconds: number): string {
  return `Each connecting address may send ${max} requests per ${windowSeconds} seconds; IPv6 clients share one budget
per /64 network. Capacity returns steadily (GCRA: one request every ${windowSeconds}/${max} seconds), so a
burst across a window edge cannot double the limit. Every request counts, 404s included; CORS preflights
do not. Every response carries:

| header | format |
| --- | --- |
| \`RateLimit-Limit\` | decimal integer: requests allowed per window (${max}) |
| \`RateLimit-Remaining\` | decimal integer: requests left for the calling address |
| \`RateLimit-Reset\` | decimal integer: seconds until the full capacity returns |
| \`RateLimit-Policy\` | structured field: \`"default";q=${max};w=${windowSeconds}\` (q: limit, w: window seconds) |
| \`RateLimit\` | structured field: \`"default";r=<remaining>;t=<seconds until more requests are allowed>\` |

\`RateLimit-Policy\` and \`RateLimit\` take the form of draft-ietf-httpapi-ratelimit-headers-10. That draft
requires each policy to be a quoted name and clients to ignore a malformed field, so the older drafts' form
(\`${max};w=${windowSeconds}\`) cannot share the field; clients written to those drafts find the limit in
\`RateLimit-Limit\`, the window in the same \`w\` parameter.

A 429 also carries \`Retry-After\` in seconds. Wait that long before retrying.
`;
}
