// Health, capabilities and sandbox: what the service says about itself, the same on every surface.

import type { ServiceConfig } from '../config.js';
import {
  BATCH_MAX_IDS,
  type Capabilities,
  type Health,
  MAX_QUERY_LENGTH,
  operations,
  PAGE_LIMIT,
  type Sandbox,
} from '../contract/index.js';
import { SERVICE_NAME, SERVICE_VERSION } from '../version.js';
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

export function serviceLinks(baseUrl: string): Record<string, string> {
  return {
    openapi: `${baseUrl}/openapi.json`,
    apiCatalog: `${baseUrl}/.well-known/api-catalog`,
    lifecyclePolicy: `${baseUrl}/api-policy.md`,
    health: `${baseUrl}/api/v1/health`,
    capabilities: `${baseUrl}/api/v1/capabilities`,
    sandbox: `${baseUrl}/api/v1/sandbox`,
    records: `${baseUrl}/api/v1/cve-records`,
    ask: `${baseUrl}/ask`,
    mcp: `${baseUrl}/mcp`,
    a2a: `${baseUrl}/a2a`,
    agentCard: `${baseUrl}/.well-known/agent-card.json`,
    llmsTxt: `${baseUrl}/llms.txt`,
  };
}

export function health(): Health {
  return { status: 'ok', version: SERVICE_VERSION, readOnly: true, assessmentExecution: false };
}

export function capabilities(config: ServiceConfig, snapshot: Snapshot): Capabilities {
  return {
    name: SERVICE_NAME,
    version: SERVICE_VERSION,
    access: 'public',
    authentication: 'none',
    readOnly: true,
    capabilities: operations.map((op) => op.operationId),
    boundaries: BOUNDARIES,
    links: serviceLinks(config.baseUrl),
    limits: {
      pageSize: { min: PAGE_LIMIT.min, max: PAGE_LIMIT.max, default: PAGE_LIMIT.default },
      batchSize: { min: 1, max: BATCH_MAX_IDS },
      searchQueryLength: { max: MAX_QUERY_LENGTH },
      rate: { limit: config.rateLimit.max, windowSeconds: config.rateLimit.windowSeconds, per: 'connecting address' },
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
export function exampleRequests(baseUrl: string, snapshot: Snapshot): string[] {
  const sample = snapshot.select({ status: 'public' })[0] ?? snapshot.select({})[0];
  const id = sample?.id ?? 'CVE-2024-3094';
  const project = sample?.project ?? 'openssl';
  const api = `${baseUrl}/api/v1`;
  return [
    `GET ${api}/health`,
    `GET ${api}/cve-records?limit=5`,
    `GET ${api}/cve-records?project=${encodeURIComponent(project)}&status=public&limit=10`,
    `GET ${api}/cve-records?status=assigned-no-public-record`,
    `GET ${api}/cve-records/${id}`,
    `POST ${api}/cve-records/batch {"recordIds":["${id}","CVE-1999-0000"]}`,
    `GET ${baseUrl}/ask?query=${encodeURIComponent(id)}`,
  ];
}

export function sandbox(config: ServiceConfig, snapshot: Snapshot): Sandbox {
  return {
    schemaVersion: '1.0',
    mode: 'sandbox',
    persistent: false,
    productionData: false,
    authentication: 'none',
    readOnly: true,
    capabilities: [...SANDBOX_CHECKS],
    boundaries: BOUNDARIES,
    links: serviceLinks(config.baseUrl),
    exampleRequests: exampleRequests(config.baseUrl, snapshot),
  };
}
