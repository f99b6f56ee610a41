// /mcp with the official clients over a real socket: the MCP SDK v1 Client (2025 era, initialize
// handshake), the v2 Client negotiating with `auto` (2026-07-28 era, server/discover), and the MCP
// Inspector's CLI. Each lists the tools and calls every one; answers must match the declared schemas.
// A client of the 2024-11-05 HTTP+SSE transport is told to use Streamable HTTP.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../../src/http/shared/agent-tools.js';
import { buildTestApp } from '../../support/app.js';
import { repositoryPath } from '../../support/paths.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

interface ToolResult {
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}
interface ListedTool {
  name: string;
  description?: string;
  inputSchema: object;
  outputSchema?: object;
  annotations?: Record<string, unknown>;
}
/** What both clients offer, so one set of checks runs against each era. */
interface McpClient {
  listTools(): Promise<{ tools: ListedTool[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<ToolResult>;
  close(): Promise<void>;
}

/** One valid call of every tool, against the fixture catalog. */
const CALLS: Record<string, Record<string, unknown>> = {
  search: { query: 'openssl' },
  fetch: { id: 'CVE-2024-50000' },
  list_cve_records: { project: 'openssl', status: 'public', limit: 2 },
  list_projects: { q: 'open' },
  get_cve_record: { recordId: 'CVE-2025-9999' },
  get_cve_record_details: { recordId: 'CVE-2024-50000' },
  batch_get_cve_records: { recordIds: ['CVE-2025-9999', 'CVE-1999-0001'] },
  check_versions: { queries: [{ project: 'openssl', version: '3.0.7' }, { purl: 'pkg:npm/left-pad@1.0.0' }], includeUnknown: true },
  search_cve_records: { query: 'curl', limit: 3 },
  list_cve_record_changes: { limit: 3 },
  get_service_info: {},
};

/** Bad arguments and unknown ids, with the code the REST API answers the same mistake with. */
const MISTAKES: [tool: string, args: Record<string, unknown>, code: string][] = [
  ['get_cve_record', { recordId: 'CVE-1999-0001' }, 'record_not_found'],
  ['fetch', { id: 'CVE-1999-0001' }, 'record_not_found'],
  ['get_cve_record_details', { recordId: 'CVE-1999-0001' }, 'record_not_found'],
  ['fetch', { id: 'not-an-id' }, 'invalid_parameter'],
  ['list_cve_records', { limit: 500 }, 'invalid_parameter'],
  ['list_cve_records', { status: 'secret' }, 'invalid_parameter'],
  ['list_cve_records', { projet: 'openssl' }, 'unknown_parameter'],
  ['list_cve_records', { cursor: 'forged' }, 'invalid_cursor'],
  ['list_cve_records', { severity: 'severe' }, 'invalid_parameter'],
  ['list_projects', { q: '' }, 'invalid_parameter'],
  ['batch_get_cve_records', { recordIds: ['CVE-2025-9999', 'CVE-2025-9999'] }, 'invalid_body'],
  ['batch_get_cve_records', { recordIds: [] }, 'invalid_body'],
  ['check_versions', { queries: [] }, 'invalid_body'],
  ['check_versions', { queries: [{ purl: 'pkg:deb/debian/curl@1.0' }] }, 'invalid_body'],
  ['check_versions', { queries: [{ project: 'openssl' }] }, 'invalid_body'],
  ['search', {}, 'invalid_parameter'],
  ['list_cve_record_changes', { since: 'yesterday' }, 'invalid_cursor'],
  ['list_cve_record_changes', { limit: 5000 }, 'invalid_parameter'],
  ['get_service_info', { verbose: true }, 'unknown_parameter'],
];

const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
const textOf = (result: ToolResult) => JSON.parse(result.content?.[0]?.text ?? 'null') as Record<string, unknown>;

let app: FastifyInstance;
let url: URL;
beforeAll(async () => {
  app = await buildTestApp();
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = new URL(`http://127.0.0.1:${(app.server.address() as { port: number }).port}/mcp`);
});
afterAll(() => app.close());

const eras: [era: string, connect: () => Promise<McpClient>][] = [
  [
    '2025 era: MCP SDK v1 Client',
    async () => {
      const client = new LegacyClient({ name: 'legacy-test', version: '1.0.0' });
      await client.connect(new LegacyTransport(url));
      expect(client.getServerVersion()?.name).toBe('public-cve-records');
      return client as unknown as McpClient;
    },
  ],
  [
    '2026-07-28 era: MCP SDK v2 Client, negotiation auto',
    async () => {
      const client = new Client({ name: 'modern-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      await client.connect(new StreamableHTTPClientTransport(url));
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      return client as unknown as McpClient;
    },
  ],
];

describe.each(eras)('%s', (_era, connect) => {
  let client: McpClient;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(() => client.close());

  it('lists every tool, annotated read-only, idempotent and closed-world, with the contract schemas', async () => {
    const { tools: listed } = await client.listTools();
    expect(listed.map((t) => t.name).sort()).toEqual(tools.map((t) => t.name).sort());
    for (const tool of tools) {
      const entry = listed.find((t) => t.name === tool.name)!;
      expect(entry.annotations, tool.name).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
      expect(entry.inputSchema, tool.name).toEqual(json(tool.input));
      expect(entry.outputSchema, tool.name).toEqual(json(tool.output));
    }
  });

  it('describes each tool truthfully and says when to use which of a near-duplicate pair', async () => {
    const listed = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
    const search = listed.get('search')!;
    expect(search.inputSchema).toMatchObject({ required: ['query'] });
    expect(JSON.stringify(search.inputSchema)).not.toMatch(/default/i);
    expect(listed.get('search_cve_records')!.inputSchema).not.toHaveProperty('required');
    for (const [one, other] of [
      ['search', 'search_cve_records'],
      ['fetch', 'get_cve_record'],
    ] as const) {
      expect(listed.get(one)!.description, one).toContain(`\`${other}\``);
      expect(listed.get(other)!.description, other).toContain(`\`${one}\``);
    }
  });

  it('answers an empty list of a project no record is filed under with the closest names, and lists those names', async () => {
    const empty = await client.callTool({ name: 'list_cve_records', arguments: { project: 'OpenSSL' } });
    expect(empty.structuredContent).toMatchObject({ records: [], pagination: { total: 0 } });
    expect(empty.content?.[1]?.text).toMatch(
      /No record is filed under the project "OpenSSL"\. The closest project names: "openssl"\. list_projects/,
    );
    const filtered = await client.callTool({ name: 'list_cve_records', arguments: { project: 'openssl', kev: true } });
    expect(filtered.content).toHaveLength(1);
    const projects = await client.callTool({ name: 'list_projects', arguments: { q: 'opnssl' } });
    expect(projects.structuredContent).toMatchObject({
      projects: [{ name: 'openssl', records: { public: 3, 'assigned-no-public-record': 1 } }],
    });
  });

  it('calls every tool: structuredContent matches the listed output schema and the text carries the same data', async () => {
    const { tools: listed } = await client.listTools();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    for (const tool of listed) {
      const result = await client.callTool({ name: tool.name, arguments: CALLS[tool.name]! });
      expect(result.isError ?? false, `${tool.name}: ${result.content?.[0]?.text}`).toBe(false);
      const validate = ajv.compile(tool.outputSchema!);
      expect(validate(result.structuredContent), `${tool.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(textOf(result), tool.name).toEqual(result.structuredContent);
    }
  });

  it('answers as the REST API does', async () => {
    const call = async (name: string) => (await client.callTool({ name, arguments: CALLS[name]! })).structuredContent;
    expect(await call('get_cve_record')).toMatchObject({ id: 'CVE-2025-9999', project: 'openssl', status: 'public' });
    expect(await call('batch_get_cve_records')).toMatchObject({ records: [{ id: 'CVE-2025-9999' }], missing: ['CVE-1999-0001'] });
    const page = (await call('list_cve_records')) as { records: { id: string }[]; pagination: { nextCursor: string } };
    expect(page.records.map((r) => r.id)).toEqual(['CVE-2025-9999', 'CVE-2024-1234']);
    const next = await client.callTool({
      name: 'list_cve_records',
      arguments: { ...CALLS.list_cve_records, cursor: page.pagination.nextCursor },
    });
    expect((next.structuredContent as { records: { id: string }[] }).records.map((r) => r.id)).toEqual(['CVE-2022-4450']);
    const found = (await call('search_cve_records')) as { query: string; results: { record: { project: string }; score: number }[] };
    expect(found.query).toBe('curl');
    expect(found.results[0]?.record.project).toBe('curl');
    const details = await app.inject({ url: '/api/v1/cve-records/CVE-2024-50000/details' });
    expect(await call('get_cve_record_details')).toEqual(details.json());
    expect(await call('get_service_info')).toMatchObject({
      health: { status: 'ok', readOnly: true },
      capabilities: { links: { mcp: 'http://cve.test/mcp', a2a: 'http://cve.test/a2a' } },
    });
  });

  it('round-trips ChatGPT-style: search, then fetch each result', async () => {
    const found = (await client.callTool({ name: 'search', arguments: { query: 'curl' } })).structuredContent as {
      results: { id: string; title: string; url: string }[];
    };
    expect(found.results.map((r) => r.id)).toEqual(expect.arrayContaining(['CVE-2024-50000', 'CVE-2025-0001']));
    for (const hit of found.results) {
      const document = (await client.callTool({ name: 'fetch', arguments: { id: hit.id } })).structuredContent;
      expect(document).toMatchObject({ id: hit.id, title: hit.title, url: hit.url });
    }
    const heap = (await client.callTool({ name: 'fetch', arguments: { id: 'CVE-2024-50000' } })).structuredContent;
    expect(heap).toMatchObject({
      text: 'Heap overflow in curl SOCKS5 proxy handshake.',
      metadata: { status: 'public', published: '2024-10-01', details: { id: 'CVE-2024-50000', project: 'curl', severity: null } },
    });
  });

  it.each(MISTAKES)('answers %s %j with a tool error carrying %s', async (name, args, code) => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toMatchObject({ error: { code, message: expect.any(String) } });
  });
});

describe('a client of the 2024-11-05 HTTP+SSE transport (MCP SDK v1 SSEClientTransport)', () => {
  const connect = (path: string) =>
    new LegacyClient({ name: 'sse-test', version: '1.0.0' }).connect(new SSEClientTransport(new URL(path, url)));

  it("is told to use Streamable HTTP at /mcp when it opens /sse, the transport's usual path", async () => {
    await expect(connect('/sse')).rejects.toThrow(`use Streamable HTTP at http://cve.test/mcp`);
  });

  it('gets 405 at /mcp, whose body says where to go', async () => {
    await expect(connect('/mcp')).rejects.toMatchObject({ code: 405 });
    const response = await fetch(url, { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      'use Streamable HTTP at http://cve.test/mcp',
    );
  });
});

describe('MCP Inspector CLI', () => {
  // @modelcontextprotocol/inspector-cli is the CLI that `npx @modelcontextprotocol/inspector --cli` runs
  // (Inspector v2 needs Node 22). Version 1.0.3 checks for its package.json relative to the working
  // directory but imports it relative to itself, so it runs from its own build directory.
  const cliDirectory = repositoryPath('node_modules/@modelcontextprotocol/inspector-cli/build/');
  const inspect = async (...args: string[]) => {
    const { stdout } = await promisify(execFile)(process.execPath, ['cli.js', '--cli', url.href, '--transport', 'http', ...args], {
      cwd: cliDirectory,
      timeout: 60_000,
    });
    return JSON.parse(stdout) as Record<string, unknown>;
  };

  it('lists every tool and calls each, exiting 0', async () => {
    const listed = (await inspect('--method', 'tools/list')) as unknown as { tools: ListedTool[] };
    expect(listed.tools.map((t) => t.name).sort()).toEqual(tools.map((t) => t.name).sort());
    for (const [name, args] of Object.entries(CALLS)) {
      const pairs = Object.entries(args).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
      const result = (await inspect(
        '--method',
        'tools/call',
        '--tool-name',
        name,
        ...(pairs.length ? ['--tool-arg', ...pairs] : []),
      )) as ToolResult;
      expect(result.isError ?? false, name).toBe(false);
      expect(result.structuredContent, name).toBeDefined();
    }
    // One Inspector process per call: about a second each on an idle machine, many on a loaded one.
  }, 150_000);
});
