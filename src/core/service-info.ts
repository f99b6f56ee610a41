// Health, capabilities and sandbox: what the service says about itself, the same on every surface.
import {
  BATCH_MAX_IDS,
  type Capabilities,
  type Health,
  MAX_QUERY_LENGTH,
  operations,
  PAGE_LIMIT,
  type Sandbox,
  ServiceError,
  VERSION_CHECK_MAX_QUERIES,
} from '../contract/index.js';
import type { Snapshot } from './snapshot.js';

export const BOUNDARIES = {
  publicInterface: 'read-only',
  startsAssessments: false,
  interactsWithTargets: false,
  readsPrivateWorkspaces: false,
  spendsCredits: false,
  assessmentExecution: 'Assessments run in a separate local runtime, outside this interface; nothing here can start or reach one.',
  authorization: 'Public access to records is not authorization for security testing.',
  consoleSessions: 'Browser sessions under /console are separate and must not be sent to the public API.',
} as const;

/**
 * What the service says about where it is and what it allows: absolute links to its documents and
 * endpoints (the HTTP layer knows its paths and origin) and its rate limit. The same on every surface.
 */
export interface ServiceDescription {
  readonly name: string;
  readonly version: string;
  readonly links: Readonly<Record<string, string>>;
  readonly rateLimit: { readonly max: number; readonly windowSeconds: number };
}

/** Whether the records' source (PostgreSQL for a replica) can be reached now. */
export interface SourceStatus {
  reachable(): boolean;
}

/**
 * The service's health: the spec's closed object, always `ok`. A replica that cannot reach its source
 * (it serves its last version, and misses changes) is not healthy, and the only way the spec leaves to say
 * so is an error answer: `source_unreachable`, status 500, which a proxy's health check sees.
 */
export function health(description: ServiceDescription, source?: SourceStatus): Health {
  if (source && !source.reachable()) throw new ServiceError('source_unreachable');
  return { status: 'ok', version: description.version, readOnly: true, assessmentExecution: false };
}

export function capabilities(description: ServiceDescription, snapshot: Snapshot): Capabilities {
  return {
    name: description.name,
    version: description.version,
    access: 'public',
    authentication: 'none',
    readOnly: true,
    capabilities: operations.map((op) => op.operationId),
    boundaries: BOUNDARIES,
    links: { ...description.links },
    limits: {
      pageSize: { min: PAGE_LIMIT.min, max: PAGE_LIMIT.max, default: PAGE_LIMIT.default },
      batchSize: { min: 1, max: BATCH_MAX_IDS },
      versionCheckQueries: { min: 1, max: VERSION_CHECK_MAX_QUERIES },
      searchQueryLength: { max: MAX_QUERY_LENGTH },
      rate: { limit: description.rateLimit.max, windowSeconds: description.rateLimit.windowSeconds, per: 'connecting address' },
    },
    dataset: { records: snapshot.size, lastVerified: snapshot.lastVerified, version: snapshot.version },
  };
}

export const SANDBOX_CHECKS = [
  'validate-responses-against-openapi',
  'exact-filters',
  'cursor-pagination',
  'batch-lookup',
  'error-shape',
  'rate-limit-headers',
  'nlweb-search',
] as const;

/** Example requests that work as written against this service; the tests send every one of them. */
export function exampleRequests(links: Readonly<Record<string, string>>, snapshot: Snapshot): string[] {
  const first = snapshot.filters.status('public')[0] ?? snapshot.filters.all[0];
  const sample = first === undefined ? undefined : snapshot.entryAt(first).record;
  const id = sample?.id ?? 'CVE-2025-24530';
  const project = sample?.project ?? 'phpMyAdmin';
  return [
    `GET ${links.health}`,
    `GET ${links.records}?limit=5`,
    `GET ${links.records}?project=${encodeURIComponent(project)}&status=public&limit=10`,
    `GET ${links.records}?status=assigned-no-public-record`,
    `GET ${links.records}/${id}`,
    `POST ${links.records}/batch {"recordIds":["${id}","CVE-1999-0000"]}`,
    `GET ${links.ask}?query=${encodeURIComponent(id)}`,
  ];
}

export function sandbox(description: ServiceDescription, snapshot: Snapshot): Sandbox {
  return {
    schemaVersion: '1.0',
    mode: 'sandbox',
    persistent: false,
    productionData: false,
    authentication: 'none',
    readOnly: true,
    capabilities: [...SANDBOX_CHECKS],
    boundaries: BOUNDARIES,
    links: { ...description.links },
    exampleRequests: exampleRequests(description.links, snapshot),
  };
}
