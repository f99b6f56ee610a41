// RFC 9727 API catalog: a linkset (RFC 9264) naming each API of the service (REST v1, MCP, A2A) with
// its description, docs, policy and status.
import type { ServiceConfig } from '../../config.js';
import { PATHS, serviceLinks } from '../shared/paths.js';

export const API_CATALOG_CONTENT_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

export function apiCatalog(config: ServiceConfig): object {
  const base = config.baseUrl;
  const links = serviceLinks(base);
  // The agent surfaces are described by the guide for agents; A2A also by its agent card.
  const agentGuide = [{ href: links.llmsTxt, type: 'text/markdown' }];
  const status = [{ href: links.health, type: 'application/json' }];
  return {
    linkset: [
      {
        anchor: `${base}${PATHS.apiPrefix}`,
        'service-desc': [{ href: links.openapi, type: 'application/openapi+json' }],
        'service-doc': [{ href: `${base}${PATHS.apiReference}`, type: 'text/markdown' }],
        'service-meta': [{ href: links.lifecyclePolicy, type: 'text/markdown' }],
        status,
      },
      { anchor: links.mcp, 'service-doc': agentGuide, status },
      { anchor: links.a2a, 'service-desc': [{ href: links.agentCard, type: 'application/json' }], 'service-doc': agentGuide, status },
    ],
  };
}
