// /llms.txt (llmstxt.org): a short Markdown guide for agents to every surface of the service, with
// absolute links. Tool names and limits come from the code that serves them, so the guide cannot
// name a tool that does not exist.

import type { ServiceConfig } from '../../config.js';
import { BATCH_MAX_IDS, FEED_ENTRIES, filterBriefs, LIST_FILTERS, PAGE_LIMIT, QUERY_READING } from '../../contract/index.js';
import { tools } from '../shared/agent-tools.js';
import { PATHS, serviceLinks } from '../shared/paths.js';
import { PROJECT_URI_TEMPLATE, RECORD_URI_TEMPLATE } from '../shared/resource-uris.js';

/** The operator may turn the limit off (max 0) when a gateway in front enforces one; say so rather than "0 requests". */
const limitSentence = (max: number, windowSeconds: number): string =>
  max > 0
    ? `Limit: ${max} requests per ${windowSeconds} seconds per address, over all surfaces;\na 429 carries \`Retry-After\` (seconds).`
    : 'This service sets no request limit of its own; a gateway in front of it may. A 429 carries\n`Retry-After` (seconds): wait that long.';

export function llmsTxt(config: ServiceConfig): string {
  const links = serviceLinks(config.baseUrl);
  const { max, windowSeconds } = config.rateLimit;
  return `# Public CVE Records

> Read-only public service for cleared CVE records: look records up by CVE id, list them by project and
> publication status, and search them in plain words. No credential, no writes. Nothing here can start an
> assessment or reach a target; public access to a record is not authorization for security testing.

A record is \`{id, project, status, url}\`; \`status\` is \`public\` (\`url\` is the public record) or
\`assigned-no-public-record\` (assigned and cleared, nothing published yet; \`url\` is null). A record's
details say what it is and how bad: description, CVSS scores with vectors and severity, CISA KEV entry
(known exploited), SSVC, CWE, affected products and versions, references. Every surface reads the same records. ${limitSentence(max, windowSeconds)}

## Agent surfaces

- [MCP endpoint](${links.mcp}): Model Context Protocol over Streamable HTTP, stateless, no authentication;
  2026-07-28 clients and 2025-era clients (initialize, then one POST per request) alike; not the
  2024-11-05 HTTP+SSE transport. Read-only tools: ${tools.map((tool) => `\`${tool.name}\``).join(', ')}.
  \`search\` and \`fetch\` are the pair ChatGPT connectors require; other clients do better with
  \`search_cve_records\` and \`get_cve_record\`. A bad argument or an unknown id is a tool
  error whose text is \`{"error": {"code", "message"}}\` with the REST API's error codes. Resources: a record
  (\`${RECORD_URI_TEMPLATE}\`) and a project's newest records (\`${PROJECT_URI_TEMPLATE}\`, the name
  percent-encoded); a 2026-07-28 client that names them in \`subscriptions/listen\` is sent
  \`notifications/resources/updated\` when they change.
- [A2A endpoint](${links.a2a}): Agent2Agent JSON-RPC, A2A 1.0 \`SendMessage\` (header \`A2A-Version: 1.0\`)
  and 0.3 \`message/send\`. Send a text message (CVE ids, a project, a status, a year, a severity, free words); the answer
  is one Message with a readable text part and a data part
  \`{query, understood, results: [{record, score, snippet}]}\`. No streaming, no push notifications, no tasks.
- [A2A agent card](${links.agentCard}): name, skills and interfaces of the A2A agent,
  for 1.0 and 0.3 clients alike (also at \`${PATHS.legacyAgentCard}\`).

## REST API

- [OpenAPI 3.1 contract](${links.openapi}): every operation, parameter, answer and error code.
- [API guide](${config.baseUrl}${PATHS.apiReference}): paging, filters, errors, caching, with examples.
- [List records](${links.records}): \`?limit\` (${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}), \`cursor\`, and the filters
  ${filterBriefs(LIST_FILTERS)}; newest first; pass \`pagination.nextCursor\` back as \`cursor\` until it is null.
- [Projects](${config.baseUrl}${PATHS.projects}): the names \`project\` takes, with aliases and counts;
  \`?q=\` finds a name by its start or a typo.
- One record: \`GET ${links.records}/{id}\`; its details: \`GET ${links.records}/{id}/details\`.
- Up to ${BATCH_MAX_IDS} records at once: \`POST ${links.records}/batch\` with \`{"recordIds": [...]}\`; their details:
  \`POST ${links.records}/details/batch\`.
- [Changes](${config.baseUrl}${PATHS.changes}): what was added, changed or removed since a token, oldest first;
  pass \`pagination.next\` back as \`since\`, and keep it to poll again later.
- [Export](${links.export}): every record in one download, NDJSON (gzip with \`Accept-Encoding: gzip\`), one
  request; keep its \`ETag\` and send \`If-None-Match\` to download again only when the catalog changed.
- [Atom feed](${links.feed}) of the ${FEED_ENTRIES} most recently published records; \`?project=\` for one project.
- [Search](${links.ask}): NLWeb \`?query=\`, JSON or Server-Sent Events, results scored 0 to 1. A query may hold
  ${QUERY_READING}; \`understood\` says how it was read. Any word may match (records meeting more of them first);
  a severity, date, year, exploitation or weakness word, or a version, that leaves nothing gives way to the
  nearest answer, and \`understood\` says so.
- [Capabilities](${links.capabilities}), [health](${links.health}), [sandbox](${links.sandbox}).

## Optional

- [API catalog (RFC 9727)](${links.apiCatalog})
- [Lifecycle policy](${links.lifecyclePolicy})
`;
}
