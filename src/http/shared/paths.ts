// The one table of the service's paths. Service links (capabilities, sandbox, the root index), the API
// catalog, /llms.txt, the page's links, the lifecycle `Link` header and the OpenAPI document all read
// their paths from here; the operations' own paths come from the contract's operations table.
import { API_PREFIX, type OperationId, operations } from '../../contract/index.js';

function operationPath(id: OperationId): string {
  const found = operations.find((op) => op.operationId === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found.path;
}

export const PATHS = {
  home: '/',
  apiPrefix: API_PREFIX,
  health: operationPath('getAgentApiHealth'),
  capabilities: operationPath('getServiceCapabilities'),
  sandbox: operationPath('getPublicApiSandbox'),
  records: operationPath('listPublicCveRecords'),
  projects: operationPath('listProjects'),
  export: operationPath('exportPublicCveRecords'),
  feed: operationPath('getPublishedRecordsFeed'),
  ask: operationPath('searchPublicRecordsWithNlweb'),
  sites: operationPath('listNlwebSites'),
  openapi: '/openapi.json',
  apiCatalog: '/.well-known/api-catalog',
  lifecyclePolicy: '/api-policy.md',
  apiReference: '/docs',
  apiGuide: '/docs/guide.md',
  docsAssets: '/docs/assets',
  llmsTxt: '/llms.txt',
  mcp: '/mcp',
  /** Where clients of MCP's 2024-11-05 HTTP+SSE transport look, to be told to use /mcp. */
  legacyMcpStream: '/sse',
  legacyMcpMessages: '/messages',
  a2a: '/a2a',
  agentCard: '/.well-known/agent-card.json',
  /** Where A2A 0.3 clients and crawlers written before 0.3's rename look for the same card. */
  legacyAgentCard: '/.well-known/agent.json',
  browserTools: '/browser-tools.js',
  webAssets: '/web',
  recordPages: '/records',
} as const;

/** The path of one record's page. */
export function recordPagePath(id: string): string {
  return `${PATHS.recordPages}/${encodeURIComponent(id)}`;
}

/** The path of the Atom feed of newly published records: the whole catalog's, or one project's. */
export function feedPath(project?: string): string {
  return project === undefined ? PATHS.feed : `${PATHS.feed}?project=${encodeURIComponent(project)}`;
}

/** Absolute links to the documents and endpoints of the service, as capabilities, the sandbox and `/` list them. */
export function serviceLinks(baseUrl: string): Record<string, string> {
  const at = (path: string) => `${baseUrl}${path}`;
  return {
    openapi: at(PATHS.openapi),
    apiCatalog: at(PATHS.apiCatalog),
    lifecyclePolicy: at(PATHS.lifecyclePolicy),
    health: at(PATHS.health),
    capabilities: at(PATHS.capabilities),
    sandbox: at(PATHS.sandbox),
    records: at(PATHS.records),
    export: at(PATHS.export),
    feed: at(PATHS.feed),
    ask: at(PATHS.ask),
    mcp: at(PATHS.mcp),
    a2a: at(PATHS.a2a),
    agentCard: at(PATHS.agentCard),
    llmsTxt: at(PATHS.llmsTxt),
  };
}
