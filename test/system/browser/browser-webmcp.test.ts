// Issue 7, /browser-tools.js in headless Chromium started with --enable-features=WebMCP: Playwright's
// page.webmcp lists the tools the page registered and calls them as an agent would. Chromium 156 puts
// the model context at document.modelContext; the script also takes navigator.modelContext (the draft).
import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CveRecord, type CveRecordPage, type NlwebResponse, operations } from '../../../src/contract/index.js';
import { browserTools } from '../../../src/http/web/browser-tools.js';
import { launchChromium, serviceAndBrowser, watchProblems } from '../../support/browser.js';

const env = serviceAndBrowser({ webmcp: true });
let page: Page;
let problems: string[];
beforeAll(async () => {
  page = await env.browser.newPage();
  problems = watchProblems(page);
  await page.goto(`${env.baseUrl}/`);
});

interface ToolResult<T> {
  content: { type: string; text: string }[];
  structuredContent: T;
  isError?: boolean;
}
const call = <T>(name: string, input: Record<string, unknown>) => page.webmcp.callTool(name, input) as Promise<ToolResult<T>>;

describe('WebMCP tools of the page', () => {
  it('lists one read-only tool per public operation, with the input schema of the contract', async () => {
    await expect.poll(async () => (await page.webmcp.tools()).length).toBe(operations.length);
    const tools = await page.webmcp.tools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(operations.map((op) => op.operationId).sort());
    const definitions = browserTools();
    for (const tool of tools) {
      expect(tool.annotations, tool.name).toMatchObject({ readOnly: true });
      expect(tool.inputSchema, tool.name).toEqual(definitions.find((d) => d.name === tool.name)!.inputSchema);
      expect(tool.description).toBe(definitions.find((d) => d.name === tool.name)!.description);
    }
  });

  it('returns records: list, get, batch get and search', async () => {
    const list = await call<CveRecordPage>('listPublicCveRecords', { project: 'OpenSSL', status: 'public', limit: 3 });
    expect(list.isError).toBeUndefined();
    expect(list.structuredContent.records).toHaveLength(3);
    expect(list.structuredContent.records.every((r) => r.project === 'OpenSSL' && r.status === 'public')).toBe(true);
    expect(JSON.parse(list.content[0]!.text)).toEqual(list.structuredContent);

    const one = await call<CveRecord>('getPublicCveRecord', { recordId: 'CVE-2024-6119' });
    expect(one.structuredContent).toEqual({
      id: 'CVE-2024-6119',
      project: 'OpenSSL',
      status: 'public',
      url: 'https://www.cve.org/CVERecord?id=CVE-2024-6119',
    });

    const batch = await call<{ records: CveRecord[]; missing: string[] }>('batchGetPublicCveRecords', {
      recordIds: ['CVE-2024-6119', 'CVE-1999-0001'],
    });
    expect(batch.structuredContent).toEqual({ records: [one.structuredContent], missing: ['CVE-1999-0001'] });

    const search = await call<NlwebResponse>('searchPublicRecordsWithNlweb', { query: 'CVE-2024-6119' });
    expect(search.structuredContent.results[0]).toMatchObject({ name: 'CVE-2024-6119 (OpenSSL)', score: 1 });

    const health = await call<{ status: string }>('getAgentApiHealth', {});
    expect(health.structuredContent.status).toBe('ok');
  });

  it('answers an unknown record with an error result carrying the API error', async () => {
    const missing = await call<{ error: { code: string } }>('getPublicCveRecord', { recordId: 'CVE-1999-0001' });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent.error.code).toBe('record_not_found');
    // Chromium logs every 404 answer to a fetch as a console error; nothing else may appear.
    expect(problems.filter((p) => !p.includes('status of 404'))).toEqual([]);
  });

  it('calls the API of the origin the script came from, when another site includes it', async () => {
    const site: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(`<!doctype html><title>Another site</title><script src="${env.baseUrl}/browser-tools.js"></script>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const other = await env.browser.newPage();
    const otherProblems = watchProblems(other);
    await other.goto(`http://127.0.0.1:${(site.address() as { port: number }).port}/`);
    const apiRequests: string[] = [];
    other.on('request', (request) => apiRequests.push(request.url()));
    const result = (await other.webmcp.callTool('getPublicCveRecord', { recordId: 'CVE-2024-6119' })) as ToolResult<CveRecord>;
    expect(result.structuredContent.id).toBe('CVE-2024-6119');
    expect(apiRequests).toEqual([`${env.baseUrl}/api/v1/cve-records/CVE-2024-6119`]);
    expect(otherProblems).toEqual([]);
    await other.close();
    site.close();
  });
});

describe('without WebMCP', () => {
  it('registers nothing and throws nothing', async () => {
    const plain = await launchChromium();
    const other = await plain.newPage();
    const otherProblems = watchProblems(other);
    await other.goto(`${env.baseUrl}/`);
    await other.waitForLoadState('load');
    const modelContext = await other.evaluate(() => {
      const { document, navigator } = globalThis as unknown as { document: object; navigator: object };
      return 'modelContext' in document || 'modelContext' in navigator;
    });
    expect(modelContext).toBe(false);
    await expect(other.webmcp.tools()).rejects.toThrow(/WebMCP is not enabled/);
    expect(otherProblems).toEqual([]);
    await plain.close();
  });
});
