// MCP resources: a record and a project, each under a URI of its own (shared/resource-uris.ts), which
// 2026-07-28 clients may subscribe to (subscriptions.ts tells them when one changes).
import { type McpServer, type ReadResourceResult, ResourceNotFoundError, ResourceTemplate } from '@modelcontextprotocol/server';
import { isCveId } from '../../core/cve-id.js';
import { listRecords } from '../../core/list.js';
import type { SurfaceContext } from '../shared/context.js';
import { PROJECT_URI_TEMPLATE, RECORD_URI_TEMPLATE } from '../shared/resource-uris.js';

const json = (uri: URL, answer: unknown): ReadResourceResult => ({
  contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(answer) }],
});

/** The one variable a template matched, decoded; undefined when it is not well-formed percent-encoding. */
function variable(value: string | string[] | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

export function registerResources(server: McpServer, ctx: SurfaceContext): void {
  server.registerResource(
    'cve_record',
    new ResourceTemplate(RECORD_URI_TEMPLATE, { list: undefined }),
    {
      title: 'A CVE record',
      description:
        'The record with this CVE id, {id, project, status, url}, as get_cve_record returns it. Subscribe to be told when it changes or is removed.',
      mimeType: 'application/json',
    },
    (uri, variables) => {
      const id = variable(variables.recordId);
      const entry = id !== undefined && isCveId(id) ? ctx.store.current.get(id) : undefined;
      if (!entry) throw new ResourceNotFoundError(uri.href, `There is no record at ${uri.href}.`);
      return json(uri, entry.record);
    },
  );
  server.registerResource(
    'cve_project',
    new ResourceTemplate(PROJECT_URI_TEMPLATE, { list: undefined }),
    {
      title: "A project's newest CVE records",
      description:
        'The newest records filed under this exact project name (names from list_projects), a page as list_cve_records ' +
        '{project} returns it; pass pagination.nextCursor to list_cve_records for more. Subscribe to be told when one ' +
        'of its records changes.',
      mimeType: 'application/json',
    },
    (uri, variables) => {
      const project = variable(variables.project);
      if (project === undefined) throw new ResourceNotFoundError(uri.href, `${uri.href} names no project.`);
      return json(uri, listRecords(ctx.store.current, { project }, ctx.cursors));
    },
  );
}
