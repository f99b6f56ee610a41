// Catalog records with just the details the list filters and the search words select on (CVSS severities,
// a KEV entry, CWE ids, a publication day), for tests that work their answers out by hand.
import { type CatalogRecord, NO_DETAILS, type Severity } from '../../src/contract/index.js';

const source = { container: 'cna', shortName: 'test' } as const;

/** A record whose details have the severities, KEV entry, CWE ids and publication day asked for. */
export function detailed(
  id: string,
  project: string,
  attributes: { severities: Severity[]; kev: boolean; cwes: string[]; published?: string; summary?: string },
): CatalogRecord {
  return {
    id,
    project,
    status: attributes.published === undefined ? 'assigned-no-public-record' : 'public',
    url: null,
    ...(attributes.published === undefined ? {} : { published: attributes.published }),
    ...(attributes.summary === undefined ? {} : { summary: attributes.summary }),
    details: {
      ...NO_DETAILS,
      metrics: attributes.severities.map((severity) => ({ version: '3.1', vector: 'CVSS:3.1/…', baseScore: 5, severity, source })),
      kev: attributes.kev ? { dateAdded: '2024-05-01', reference: null } : null,
      problemTypes: attributes.cwes.map((cweId) => ({ cweId, description: cweId, source })),
    },
  };
}
