// The A2A agent card: who this agent is, where it answers (the absolute /a2a URL, JSON-RPC, A2A 1.0,
// and the same endpoint listed again for 0.3 clients) and what it can be asked. Nothing streams and
// nothing is pushed: every answer is one Message, returned at once.
import { A2A_PROTOCOL_VERSION, AgentCard, type AgentSkill } from '@a2a-js/sdk';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';
import type { ServiceConfig } from '../../config.js';
import { SERVICE_NAME, SERVICE_VERSION } from '../../version.js';
import { PATHS } from '../shared/paths.js';

const BINDING = 'JSONRPC';
/** What a 0.3 card states as its `protocolVersion`: the 0.3 specification writes it with its patch. */
const LEGACY_CARD_VERSION = '0.3.0';

/**
 * The card as served: the canonical JSON of the 1.0 card, plus the four members through which a 0.3
 * client finds the endpoint (`url`, `preferredTransport`, `protocolVersion`, `additionalInterfaces`),
 * naming the same JSON-RPC endpoint. This is the SDK's "superset" card: a 1.0 client reads
 * `supportedInterfaces` and ignores the rest, and a 0.3 client, which knows no `supportedInterfaces`,
 * reads the 0.3 members. One document for both, so `/.well-known/agent.json` (0.3's path) and
 * `/.well-known/agent-card.json` answer alike, whatever client asks.
 */
export function agentCardDocument(card: AgentCard): Record<string, unknown> {
  const endpoint = card.supportedInterfaces.find((i) => i.protocolBinding === BINDING)?.url;
  if (!endpoint) throw new Error('the agent card lists no JSON-RPC interface');
  return {
    ...(AgentCard.toJSON(card) as Record<string, unknown>),
    url: endpoint,
    preferredTransport: BINDING,
    protocolVersion: LEGACY_CARD_VERSION,
    additionalInterfaces: [{ url: endpoint, transport: BINDING }],
  };
}

export function agentCard(config: ServiceConfig): AgentCard {
  const interfaces = [
    { url: `${config.baseUrl}${PATHS.a2a}`, protocolBinding: BINDING, protocolVersion: A2A_PROTOCOL_VERSION, tenant: '' },
  ];
  return {
    name: SERVICE_NAME,
    description:
      'Read-only agent for cleared public CVE records. Ask in plain words for CVE ids, a project, a publication ' +
      'status or a year; the answer is one message with a readable list and the matching records as JSON. It ' +
      'cannot start assessments or reach targets; public access to a record is not authorization for security testing.',
    version: SERVICE_VERSION,
    supportedInterfaces: duplicateInterfacesForLegacy(interfaces, [BINDING]),
    provider: undefined,
    documentationUrl: `${config.baseUrl}${PATHS.llmsTxt}`,
    capabilities: { streaming: false, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: SKILLS,
    signatures: [],
  };
}

const skill = (id: string, name: string, description: string, tags: string[], examples: string[]): AgentSkill => ({
  id,
  name,
  description,
  tags,
  examples,
  inputModes: ['text/plain'],
  outputModes: ['text/plain', 'application/json'],
  securityRequirements: [],
});

const SKILLS: AgentSkill[] = [
  skill(
    'lookup-records',
    'Look up CVE records by id',
    'Finds the records of one or more CVE identifiers, in any spelling (CVE-2024-6119, cve 2024 6119).',
    ['cve', 'lookup', 'identifier'],
    // Records of the embedded dataset, so that every example answers (a2a-client.test.ts asks each).
    ['CVE-2024-6119', 'CVE-2022-43552 and CVE-2024-50124'],
  ),
  skill(
    'search-records',
    'Search CVE records',
    'Searches records by project (typos and aliases tolerated), publication status, year, severity ("critical", "cvss 9"), exploitation ("actively exploited", "in KEV"), CWE id and free text, best match first, each with a score from 0 to 1.',
    ['cve', 'search', 'severity', 'kev', 'cwe'],
    [
      'openssl vulnerabilities since 2023',
      'heap overflow in curl',
      'actively exploited Windows vulnerabilities',
      'critical WordPress plugins since 2024',
    ],
  ),
  skill(
    'list-records',
    'List CVE records of a project or status',
    'Lists the records of a project or of a publication status (public, or assigned without a public record yet), newest first.',
    ['cve', 'list', 'project', 'status'],
    ['public records for Linux', 'records assigned but not yet public'],
  ),
  skill(
    'check-versions',
    'Is a version affected?',
    'Checks package URLs with a version (pkg:pypi/apache-airflow@2.7.0; npm, PyPI, Maven, Go, crates.io, NuGet, RubyGems, ' +
      "Composer, WordPress) and CPE 2.3 names (with a version attribute) against the records' affected versions: the " +
      'records that say the version is affected, each with the range that matched.',
    ['cve', 'version', 'purl', 'cpe', 'affected'],
    ['pkg:pypi/apache-airflow@2.7.0', 'cpe:2.3:a:openssl:openssl:3.0.7:*:*:*:*:*:*:*'],
  ),
];
