// The A2A agent card: who this agent is, where it answers (the absolute /a2a URL, JSON-RPC, A2A 1.0,
// and the same endpoint listed again for 0.3 clients) and what it can be asked. Nothing streams and
// nothing is pushed: every answer is one Message, returned at once.
import { A2A_PROTOCOL_VERSION, type AgentCard, type AgentSkill } from '@a2a-js/sdk';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';
import type { ServiceConfig } from '../../config.js';
import { SERVICE_NAME, SERVICE_VERSION } from '../../version.js';
import { PATHS } from '../shared/paths.js';

const BINDING = 'JSONRPC';

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
    'Finds the records of one or more CVE identifiers, in any spelling (CVE-2024-3094, cve 2024 3094).',
    ['cve', 'lookup', 'identifier'],
    ['CVE-2024-3094', 'CVE-2021-44228 and CVE-2022-4450'],
  ),
  skill(
    'search-records',
    'Search CVE records',
    'Searches records by project (typos and aliases tolerated), publication status, year and free text, best match first, each with a score from 0 to 1.',
    ['cve', 'search'],
    ['openssl vulnerabilities since 2023', 'heap overflow in curl'],
  ),
  skill(
    'list-records',
    'List CVE records of a project or status',
    'Lists the records of a project or of a publication status (public, or assigned without a public record yet), newest first.',
    ['cve', 'list', 'project', 'status'],
    ['public records for Linux', 'records assigned but not yet public'],
  ),
];
