// /llms.txt and the other places that point agents at /mcp and /a2a: capabilities, the sandbox, the
// root index and the RFC 9727 API catalog. Every link must lead somewhere that answers.
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../../src/http/shared/agent-tools.js';
import { buildTestApp, TEST_BASE_URL } from '../../support/app.js';

const AGENT_LINKS = {
  mcp: `${TEST_BASE_URL}/mcp`,
  a2a: `${TEST_BASE_URL}/a2a`,
  agentCard: `${TEST_BASE_URL}/.well-known/agent-card.json`,
  llmsTxt: `${TEST_BASE_URL}/llms.txt`,
};

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});

/** A link of the service resolves: GET answers 200, or 405 with POST allowed for the POST-only endpoints. */
async function expectResolves(href: string): Promise<void> {
  expect(href.startsWith(`${TEST_BASE_URL}/`), href).toBe(true);
  const response = await app.inject(href.slice(TEST_BASE_URL.length));
  if (response.statusCode === 405) expect(response.headers.allow, href).toContain('POST');
  else expect(response.statusCode, href).toBe(200);
}

describe('/llms.txt', () => {
  it('is a Markdown guide with a title, a summary and sections', async () => {
    const response = await app.inject('/llms.txt');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(response.headers.etag).toBeDefined();
    expect(response.body).toMatch(/^# Public CVE Records\n\n> /);
    expect(response.body).toContain('## Agent surfaces');
    expect(response.body).toContain('## REST API');
  });

  it('states the limit, and no limit when the operator turned it off', async () => {
    expect((await app.inject('/llms.txt')).body).toContain('Limit: 1000000 requests per 60 seconds per address');
    const unlimited = await buildTestApp({ config: { rateLimit: { max: 0, windowSeconds: 60 } } });
    const body = (await unlimited.inject('/llms.txt')).body;
    await unlimited.close();
    expect(body).not.toMatch(/\b0 requests/);
    expect(body).toContain('sets no request limit of its own');
  });

  it('links every surface with absolute links, and every link resolves', async () => {
    const body = (await app.inject('/llms.txt')).body;
    const hrefs = [...body.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1]!);
    for (const href of Object.values(AGENT_LINKS).filter((link) => link !== AGENT_LINKS.llmsTxt)) expect(hrefs).toContain(href);
    for (const href of [`${TEST_BASE_URL}/openapi.json`, `${TEST_BASE_URL}/ask`, `${TEST_BASE_URL}/api/v1/cve-records`])
      expect(hrefs).toContain(href);
    for (const href of hrefs) await expectResolves(href);
  });

  it('names every MCP tool', async () => {
    const body = (await app.inject('/llms.txt')).body;
    for (const tool of tools) expect(body).toContain(`\`${tool.name}\``);
  });
});

describe('the agent surfaces in discovery', () => {
  it('capabilities, the sandbox and the root index link them', async () => {
    for (const path of ['/api/v1/capabilities', '/api/v1/sandbox', '/']) {
      const links = (await app.inject(path)).json().links as Record<string, string>;
      expect(links, path).toMatchObject(AGENT_LINKS);
    }
    for (const href of Object.values(AGENT_LINKS)) await expectResolves(href);
  });

  it('the API catalog lists /mcp and /a2a, each with a guide and status, and the agent card as A2A description', async () => {
    const { linkset } = (await app.inject('/.well-known/api-catalog')).json() as { linkset: Record<string, any>[] };
    const mcp = linkset.find((entry) => entry.anchor === AGENT_LINKS.mcp);
    const a2a = linkset.find((entry) => entry.anchor === AGENT_LINKS.a2a);
    expect(mcp?.['service-doc'][0].href).toBe(AGENT_LINKS.llmsTxt);
    expect(a2a?.['service-desc'][0]).toEqual({ href: AGENT_LINKS.agentCard, type: 'application/json' });
    for (const entry of [mcp!, a2a!]) {
      await expectResolves(entry.anchor);
      for (const rel of ['service-desc', 'service-doc', 'status']) {
        for (const link of entry[rel] ?? []) await expectResolves(link.href);
      }
    }
  });
});
