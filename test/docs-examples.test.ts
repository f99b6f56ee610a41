// Every example a reader may copy runs against the shipped dataset: the curl commands of the Markdown docs,
// the CVE ids they and the served documents name (/openapi.json's examples, which Swagger UI prefills,
// /llms.txt, the agent card, the MCP tool schemas), and the requests the OpenAPI examples make.
import { readdirSync, readFileSync } from 'node:fs';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogRecord } from '../src/contract/index.js';
import { buildTestApp, loadDefaultCatalog, TEST_BASE_URL } from './support/app.js';
import { type CurlExample, curlExamples, cveIdsIn } from './support/doc-examples.js';
import { repositoryPath } from './support/paths.js';

const DOC_FILES = [
  'README.md',
  'packages/sdk/README.md',
  ...readdirSync(repositoryPath('docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
/** The hosts examples are written for: the local default, the docs' deployment, the test app's base URL. */
const HOSTS = ['http://127.0.0.1:8080', 'https://cve.example.org', TEST_BASE_URL];
/** Ids the docs name as what the service does not hold: a 404's example, a batch's `missing`. */
const DOCUMENTED_ABSENT = new Set(['CVE-1999-0000', 'CVE-1999-0001']);

const read = (file: string) => readFileSync(repositoryPath(file), 'utf8');
const examples = DOC_FILES.flatMap((file) => curlExamples(read(file)).map((example) => ({ file, example })));

let app: FastifyInstance;
let records: Map<string, CatalogRecord>;

beforeAll(async () => {
  const catalog = await loadDefaultCatalog();
  records = new Map(catalog.records.map((record) => [record.id, record]));
  app = await buildTestApp({ catalog });
});
afterAll(() => app.close());

function pathOf(url: string): string {
  const host = HOSTS.find((h) => url === h || url.startsWith(`${h}/`) || url.startsWith(`${h}?`));
  if (host === undefined) throw new Error(`${url} names no host of this service`);
  return url.slice(host.length) || '/';
}

function expectHeld(text: string, where: string): void {
  for (const id of cveIdsIn(text)) {
    if (DOCUMENTED_ABSENT.has(id)) expect(records.has(id), `${where} names ${id} as a record the service lacks`).toBe(false);
    else expect(records.has(id), `${where} names ${id}, which the shipped data does not hold`).toBe(true);
  }
}

function expect2xx(response: LightMyRequestResponse, what: string): void {
  expect(Math.floor(response.statusCode / 100), `${what}: ${response.statusCode} ${response.body.slice(0, 300)}`).toBe(2);
}

describe.each(DOC_FILES)('%s', (file) => {
  const text = read(file);

  it('names only records the shipped data holds', () => {
    expectHeld(text, file);
  });

  it('shows each record with the project the data gives it', () => {
    for (const [, id, project] of text.matchAll(/"id":\s*"(CVE-[\d-]+)",\s*"project":\s*"([^"]+)"/g)) {
      expect(records.get(id!)?.project, `${file}: ${id}`).toBe(project);
    }
  });
});

describe('the curl examples of the docs', () => {
  // The ETag each path last answered with: the examples that send `If-None-Match: "<that etag>"` (or a
  // shell substitution) send the one the example before them received.
  const etags = new Map<string, string>();

  it('are found', () => {
    expect(examples.length).toBeGreaterThanOrEqual(10);
  });

  it.each(examples.map(({ file, example }, index) => [`${file} #${index}: ${example.method} ${example.url}`, example] as const))(
    '%s',
    async (_, example: CurlExample) => {
      const url = pathOf(example.url);
      const headers = { ...example.headers };
      const conditional = headers['if-none-match'];
      if (conditional !== undefined && /[<$]/.test(conditional)) {
        const etag = etags.get(url);
        expect(etag, `an earlier example fetched ${url}`).toBeDefined();
        headers['if-none-match'] = etag!;
      }
      const response = await app.inject({
        method: example.method as 'GET',
        url,
        headers,
        ...(example.body === undefined ? {} : { payload: example.body }),
      });
      if (example.documentedStatus === undefined) expect2xx(response, example.source);
      else expect(response.statusCode, example.source).toBe(example.documentedStatus);
      if (response.headers.etag !== undefined) etags.set(url, String(response.headers.etag));
      expectHeld(example.source, example.source);
    },
  );
});

describe('the questions of docs/API.md, as people ask them', () => {
  const section = read('docs/API.md').split('### Questions as people ask them')[1]?.split('\n## ')[0] ?? '';
  const rows = [...section.matchAll(/^\| `([^`]+)` \| `([^`]+)` \| (CVE-[\d-]+) \|$/gm)].map(([, question, reading, id]) => ({
    question: question!,
    reading: reading!,
    id: id!,
  }));

  it('are found', () => {
    expect(rows.length).toBeGreaterThanOrEqual(8);
  });

  it.each(rows)('$question', async ({ question, reading, id }) => {
    const response = await app.inject(`/ask?query=${encodeURIComponent(question)}`);
    expect2xx(response, question);
    const body = response.json() as { understood: string[]; results: { name: string }[] };
    expect(body.understood).toContain(reading);
    expect(body.results.slice(0, 3).map((result) => result.name.split(' ')[0])).toContain(id);
  });
});

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function collectExamples(node: Json, into: Json[] = []): Json[] {
  if (Array.isArray(node)) for (const item of node) collectExamples(item, into);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example' || key === 'examples') into.push(value);
      collectExamples(value, into);
    }
  }
  return into;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { examples?: Json[] };
}

describe('the served documents', () => {
  it('/openapi.json: every example names held records, and every GET filled from its examples answers 2xx', async () => {
    const document = (await app.inject('/openapi.json')).json() as {
      paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
      components: { schemas: Record<string, { properties: { recordIds: { items: { examples: string[] } } } }> };
    };
    expectHeld(JSON.stringify(collectExamples(document as unknown as Json)), '/openapi.json');
    let filled = 0;
    for (const [template, operations] of Object.entries(document.paths)) {
      const parameters = operations.get?.parameters ?? [];
      if (!parameters.some((p) => p.in === 'path')) continue;
      let url = template;
      const query = new URLSearchParams();
      for (const parameter of parameters.filter((p) => p.in === 'path' || p.required)) {
        const value = parameter.schema?.examples?.[0];
        expect(value, `${template}: an example of ${parameter.name}`).toBeDefined();
        if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
        else query.set(parameter.name, String(value));
      }
      expect2xx(await app.inject(`${url}${query.size ? `?${query}` : ''}`), `GET ${url}`);
      filled++;
    }
    expect(filled).toBeGreaterThan(0);
    // Swagger UI's "Try it out" prefills the batch body from the items' example.
    const recordIds = document.components.schemas.BatchRequest!.properties.recordIds.items.examples.slice(0, 1);
    const batch = await app.inject({ method: 'POST', url: '/api/v1/cve-records/batch', payload: { recordIds } });
    expect(batch.statusCode).toBe(200);
    expect(batch.json().missing).toEqual([]);
  });

  it('/llms.txt: names held records, and each page it links on this service answers 2xx', async () => {
    const text = (await app.inject('/llms.txt')).body;
    expectHeld(text, '/llms.txt');
    const links = [...text.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map((match) => match[1]!);
    expect(links.length).toBeGreaterThan(5);
    for (const link of links.filter((l) => HOSTS.some((h) => l.startsWith(h)))) {
      const response = await app.inject(pathOf(link));
      // The agent endpoints take POST only; their documents are linked beside them.
      if (response.statusCode === 405) expect(String(response.headers.allow)).toContain('POST');
      else expect2xx(response, link);
    }
  });

  it('the agent card and the MCP tool schemas name held records', async () => {
    expectHeld((await app.inject('/.well-known/agent-card.json')).body, 'the agent card');
    const tools = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    });
    expect(tools.statusCode, tools.body).toBe(200);
    expect(tools.body).toContain('recordId');
    expectHeld(tools.body, 'MCP tools/list');
  });
});
