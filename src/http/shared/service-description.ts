// How the service describes itself to every surface: its name and version, absolute links from the table
// of paths, and its rate limit. The core's health, capabilities and sandbox are built from this.
import type { ServiceConfig } from '../../config.js';
import type { ServiceDescription } from '../../core/service-info.js';
import { SERVICE_NAME, SERVICE_VERSION } from '../../version.js';
import { serviceLinks } from './paths.js';

export function describeService(config: ServiceConfig): ServiceDescription {
  return { name: SERVICE_NAME, version: SERVICE_VERSION, links: serviceLinks(config.baseUrl), rateLimit: config.rateLimit };
}
