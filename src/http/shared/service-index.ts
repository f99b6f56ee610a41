// The JSON index at `/` for programs (browsers get the page): the service's name, version and links.
import type { ServiceDescription } from '../../core/service-info.js';

export function serviceIndex(description: ServiceDescription): string {
  return JSON.stringify({ name: description.name, version: description.version, links: description.links });
}
