// Issue 7, /browser-tools.js outside a browser: the tool definitions come from the contract, and the
// script registers them where a model context exists, calls its own origin, and never throws.
import { runInNewContext } from 'node:vm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AskQuery, BatchRequest, ListQuery, NLWEB_IGNORED_PARAMETERS, operations, RecordIdParams } from '../../../src/contract/index.js';
import { browserTools } from '../../../src/http/web/browser-tools.js';
import { buildTestApp } from '../../support/app.js';

let app: FastifyInstance;
let script: string;
beforeAll(async () => {
  app = await buildTestApp();
  script = (await app.inject('/browser-tools.js')).body;
});
afterAll(() => app.close());

const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('tool definitions', () => {
  const tools = browserTools();
  const tool = (name: string) => tools.find((t) => t.name === name)!;

  it('has one tool per operation of the contract, named by its operationId', () => {
    expect(tools.map((t) => t.name)).toEqual(operations.map((op) => op.operationId));
    for (const t of tools) expect(t.description.length).toBeGreaterThan(20);
  });

  it('takes its input schemas from the contract: path parameters, query and body', () => {
    expect(json(tool('getPublicCveRecord').inputSchema)).toEqual(json({ ...RecordIdParams }));
    expect(json(tool('listPublicCveRecords').inputSchema)).toEqual(
      json({ type: 'object', properties: ListQuery.properties, additionalProperties: false }),
    );
    expect(json(tool('batchGetPublicCveRecords').inputSchema)).toEqual(json({ ...BatchRequest }));
    expect(tool('getAgentApiHealth').inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });

  it('leaves out the /ask parameters that would turn the JSON answer into an event stream, and the NLWeb ones it ignores', () => {
    const left = Object.keys(tool('searchPublicRecordsWithNlweb').inputSchema.properties as object);
    const expected = Object.keys(AskQuery.properties).filter(
      (name) => !(['stream', 'streaming', ...NLWEB_IGNORED_PARAMETERS] as string[]).includes(name),
    );
    expect(left).toEqual(expected);
    expect(left).toEqual(['query', 'limit', 'query_id', 'decontextualized_query', 'site', 'mode', 'generate_mode']);
  });
});

/** Runs the served script in a fresh global scope holding only `globals`. */
function runScript(globals: Record<string, unknown>): void {
  runInNewContext(script, { URL, JSON, Object, String, ...globals });
}

interface Registered {
  name: string;
  description: string;
  inputSchema: unknown;
  annotations: { readOnlyHint: boolean };
  execute(input: unknown): Promise<{ content: { type: string; text: string }[]; structuredContent?: unknown; isError?: boolean }>;
}

function fakeBrowser(options: { where?: 'navigator' | 'document'; respond?: (url: string, init: RequestInit) => Promise<Response> } = {}) {
  const registered: Registered[] = [];
  const requests: { url: string; init: RequestInit }[] = [];
  const modelContext = { registerTool: (tool: Registered) => registered.push(tool) };
  const where = options.where ?? 'navigator';
  runScript({
    navigator: where === 'navigator' ? { modelContext } : {},
    document: { currentScript: { src: 'https://cve.example.org/browser-tools.js' }, ...(where === 'document' ? { modelContext } : {}) },
    location: { href: 'https://elsewhere.example/page' },
    fetch: (url: string, init: RequestInit) => {
      requests.push({ url, init });
      return options.respond ? options.respond(url, init) : Promise.resolve(Response.json({ ok: true }));
    },
  });
  return { registered, requests, tool: (name: string) => registered.find((t) => t.name === name)! };
}

describe('the script', () => {
  it('does nothing, and throws nothing, without WebMCP or without a DOM', () => {
    expect(() => runScript({})).not.toThrow();
    expect(() => runScript({ navigator: {}, document: { currentScript: null }, location: { href: 'https://x.example/' } })).not.toThrow();
    expect(() => runScript({ navigator: { modelContext: {} }, document: {}, location: { href: 'https://x.example/' } })).not.toThrow();
  });

  it('throws nothing when the browser refuses a tool', () => {
    const refuse = {
      registerTool: () => {
        throw new Error('duplicate');
      },
    };
    expect(() => runScript({ navigator: { modelContext: refuse }, document: {}, location: { href: 'https://x.example/' } })).not.toThrow();
  });

  it.each(['navigator', 'document'] as const)('registers every tool as read-only where %s.modelContext exists', (where) => {
    const { registered } = fakeBrowser({ where });
    expect(registered.map((t) => t.name)).toEqual(operations.map((op) => op.operationId));
    for (const t of registered) expect(t.annotations).toEqual({ readOnlyHint: true });
    expect(registered.map((t) => json(t.inputSchema))).toEqual(browserTools().map((t) => json(t.inputSchema)));
  });

  it('calls the API of the origin it was loaded from, not of the page', async () => {
    const { tool, requests } = fakeBrowser();
    await tool('getPublicCveRecord').execute({ recordId: 'CVE-2024-6119' });
    await tool('listPublicCveRecords').execute({ project: 'Linux kernel', status: 'public', limit: 5 });
    await tool('batchGetPublicCveRecords').execute({ recordIds: ['CVE-2024-6119', 'CVE-1999-0001'] });
    await tool('searchPublicRecordsWithNlweb').execute({ query: 'openssl', limit: 3 });
    await tool('getAgentApiHealth').execute(undefined);
    expect(requests.map((r) => `${r.init.method} ${r.url}`)).toEqual([
      'GET https://cve.example.org/api/v1/cve-records/CVE-2024-6119',
      'GET https://cve.example.org/api/v1/cve-records?limit=5&project=Linux+kernel&status=public',
      'POST https://cve.example.org/api/v1/cve-records/batch',
      'GET https://cve.example.org/ask?query=openssl&limit=3',
      'GET https://cve.example.org/api/v1/health',
    ]);
    expect(requests[2]!.init.body).toBe('{"recordIds":["CVE-2024-6119","CVE-1999-0001"]}');
    expect(requests.every((r) => r.init.credentials === 'omit')).toBe(true);
  });

  it('answers with the JSON as text and as structured content; an error answer or a failed request is an error result', async () => {
    const error = { error: { code: 'record_not_found', message: 'There is no record CVE-1999-0001.' }, requestId: 'r' };
    const answers = [Response.json({ id: 'CVE-2024-6119' }), Response.json(error, { status: 404 })];
    const { tool } = fakeBrowser({
      respond: () => (answers.length > 0 ? Promise.resolve(answers.shift()!) : Promise.reject(new TypeError('offline'))),
    });
    const found = await tool('getPublicCveRecord').execute({ recordId: 'CVE-2024-6119' });
    expect(found).toEqual({ content: [{ type: 'text', text: '{"id":"CVE-2024-6119"}' }], structuredContent: { id: 'CVE-2024-6119' } });
    expect(await tool('getPublicCveRecord').execute({ recordId: 'CVE-1999-0001' })).toMatchObject({
      isError: true,
      structuredContent: error,
    });
    expect(await tool('getPublicCveRecord').execute({ recordId: 'CVE-1999-0001' })).toEqual({
      content: [{ type: 'text', text: 'The request failed: offline' }],
      isError: true,
    });
  });
});
