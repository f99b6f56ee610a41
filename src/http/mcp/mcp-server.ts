// One MCP server per request, as the SDK's stateless serving asks: the factory registers the tools of
// the table on a fresh McpServer. Schemas and argument checks are built once, at the first request.
import { McpServer, type McpServerFactory } from '@modelcontextprotocol/server';
import type { FastifyBaseLogger } from 'fastify';
import { requestCheck, ServiceError } from '../../contract/index.js';
import { SERVICE_NAME, SERVICE_VERSION } from '../../version.js';
import { tools } from '../shared/agent-tools.js';
import type { SurfaceContext } from '../shared/context.js';
import { PROJECT_URI_TEMPLATE, RECORD_URI_TEMPLATE } from '../shared/resource-uris.js';
import { registerResources } from './resources.js';
import { toolAnswer, toolError } from './tool-results.js';
import { toolInput, toolOutput } from './tool-schemas.js';

const INSTRUCTIONS =
  'Read-only access to cleared public CVE records: look a record up by CVE id (get_cve_record, ' +
  'batch_get_cve_records), with its description, CVSS scores, CISA KEV entry, CWE, affected products and ' +
  'references (get_cve_record_details); search in plain words: ids, projects, status, years, severity ' +
  '("critical", "cvss 9"), exploitation ("actively exploited"), CWE ids, free text (search_cve_records; search ' +
  'and fetch for ChatGPT connectors); list by exact project, status, severity, kev, cwe or publication dates ' +
  '(list_cve_records, paging with nextCursor), with project names from list_projects; whether versions of projects, ' +
  'packages (purl) or CPE names are affected (check_versions, or list_cve_records with version, purl or cpe); follow changes ' +
  `(list_cve_record_changes), or subscribe to a record or a project as a resource (${RECORD_URI_TEMPLATE}, ` +
  `${PROJECT_URI_TEMPLATE}) to be told when it changes. Nothing here can start an assessment or reach a target; public access to a ` +
  'record is not authorization for security testing.';

/** Every tool only reads the snapshot: safe to call, to repeat and to retry, and it reaches nothing outside. */
const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

// Made at the first MCP request, not when the module loads: the output schemas and argument checks cost
// 180 ms of CPU, which a server's start paid before its first REST answer (docs/PERFORMANCE.md, "The sync
// step and the start, stop 38").
let made: ReturnType<typeof registrations> | undefined;
const registrations = () =>
  tools.map((tool) => ({
    tool,
    inputSchema: toolInput(tool.input),
    outputSchema: toolOutput(tool.output),
    check: requestCheck(tool.input, tool.arguments),
  }));

export function mcpServerFactory(ctx: SurfaceContext, log: FastifyBaseLogger): McpServerFactory {
  const cacheHint = { ttlMs: ctx.config.cacheMaxAgeSeconds * 1000, cacheScope: 'public' } as const;
  return ({ era }) => {
    const server = new McpServer(
      { name: SERVICE_NAME, title: 'Public CVE Records', version: SERVICE_VERSION, websiteUrl: ctx.config.baseUrl },
      {
        // The tools and resource templates never change while the service runs, so there is no list
        // change to subscribe to. A resource's change is told on a `subscriptions/listen` stream, which only
        // 2026-07-28 clients open: a stateless 2025-era exchange has nowhere to send it.
        capabilities: { tools: { listChanged: false }, resources: { listChanged: false, subscribe: era === 'modern' } },
        instructions: INSTRUCTIONS,
        // For the same reason, 2026-07-28 clients may keep the tool list and the discovery answer as
        // long as HTTP caches keep a document, and share them: they are the same for every caller.
        cacheHints: { 'tools/list': cacheHint, 'server/discover': cacheHint },
      },
    );
    made ??= registrations();
    for (const { tool, inputSchema, outputSchema, check } of made) {
      server.registerTool(
        tool.name,
        { title: tool.title, description: tool.description, inputSchema, outputSchema, annotations: { title: tool.title, ...ANNOTATIONS } },
        async (args) => {
          try {
            const checked = check(args);
            const answer = await tool.run(checked, ctx);
            return toolAnswer(answer, await tool.hint?.(checked, answer, ctx));
          } catch (error) {
            if (error instanceof ServiceError) return toolError(error);
            log.error({ err: error, tool: tool.name }, 'tool failed');
            return toolError(new ServiceError('internal_error'));
          }
        },
      );
    }
    registerResources(server, ctx);
    return server;
  };
}
