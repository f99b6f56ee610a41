// RFC 9727 API catalog: a linkset (RFC 9264) naming the API's description, docs, policy and status.
import type { ServiceConfig } from '../../config.js';

export const API_CATALOG_PATH = '/.well-known/api-catalog';
export const API_CATALOG_CONTENT_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

export function apiCatalog(config: ServiceConfig): object {
  const base = config.baseUrl;
  return {
    linkset: [
      {
        anchor: `${base}/api/v1`,
        'service-desc': [{ href: `${base}/openapi.json`, type: 'application/openapi+json' }],
        'service-doc': [{ href: `${base}/docs`, type: 'text/markdown' }],
        'service-meta': [{ href: `${base}/api-policy.md`, type: 'text/markdown' }],
        status: [{ href: `${base}/api/v1/health`, type: 'application/json' }],
      },
    ],
  };
}
