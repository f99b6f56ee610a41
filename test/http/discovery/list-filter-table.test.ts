// The list's filters are declared once (src/contract/list-filters.ts): a filter added to the table appears in
// the OpenAPI parameters, the MCP tool's arguments, the agents' words and the page's form with no other edit,
// and every surface of the service offers exactly the table's filters.
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChangeStreamQuery,
  filterBriefs,
  filterReadings,
  LIST_FILTERS,
  type ListFilter,
  ListQuery,
  listQueryOf,
  operations,
} from '../../../src/contract/index.js';
import { FILTER_READERS } from '../../../src/core/filter-index.js';
import { buildOpenApiDocument } from '../../../src/http/discovery/openapi.js';
import { toolInput } from '../../../src/http/mcp/tool-schemas.js';
import { tools } from '../../../src/http/shared/agent-tools.js';
import { filterForm } from '../../../src/http/web/finder-forms.js';
import type { ListView } from '../../../src/http/web/record-view.js';
import { buildTestApp, testConfig } from '../../support/app.js';

const LIST_PATH = '/api/v1/cve-records';

/** A filter the service does not have, declared as a new one would be: one entry, in a new cursor group. */
const fixed: ListFilter = {
  schema: Type.Boolean({ description: '`true`: only records whose vendor published a fix.' }),
  reads: 'details',
  cursorGroup: 4,
  stream: true,
  brief: '`fixed` (true/false: a fix is published)',
  form: { kind: 'choice', label: 'Fixed', any: 'Either', choices: { true: 'Fix published', false: 'No fix yet' } },
};
const withFixed = { ...LIST_FILTERS, fixed };

type Parameter = { name: string; in: string; description?: string; schema: unknown };
const listParameters = (document: unknown): Parameter[] =>
  (document as { paths: Record<string, { get: { parameters: Parameter[] } }> }).paths[LIST_PATH]!.get.parameters.filter(
    (parameter) => parameter.in === 'query',
  );

describe('a filter added to the table', () => {
  it('is a parameter of the list in the OpenAPI document, after the others, which stay as they are', () => {
    const list = operations.find((op) => op.operationId === 'listPublicCveRecords')!;
    const document = buildOpenApiDocument(
      testConfig(),
      operations.map((op) => (op === list ? { ...op, query: listQueryOf(withFixed) } : op)),
    );
    const parameters = listParameters(document);
    expect(parameters.at(-1)).toEqual({
      name: 'fixed',
      in: 'query',
      required: false,
      description: '`true`: only records whose vendor published a fix.',
      schema: { type: 'boolean' },
    });
    expect(parameters.slice(0, -1)).toEqual(listParameters(buildOpenApiDocument(testConfig())));
  });

  it("is an argument of the MCP list tool's schema", () => {
    const schema = toolInput(listQueryOf(withFixed))['~standard'].jsonSchema.input({ target: 'draft-2020-12' }) as {
      properties: Record<string, unknown>;
    };
    expect(schema.properties.fixed).toEqual({ type: 'boolean', description: '`true`: only records whose vendor published a fix.' });
  });

  it("is named in the list's description and to agents", () => {
    expect(filterReadings(withFixed)).toContain('`published_before` and `fixed` by what the details say');
    expect(filterBriefs(withFixed)).toMatch(/`cpe` \(a CPE 2\.3 name\) and `fixed` \(true\/false: a fix is published\)$/);
  });

  it("is a field of the page's filter form, showing the view's value", () => {
    const view = { fixed: false } as ListView;
    const form = filterForm(view, { suggested: [], spellingsOf: () => [] }, withFixed).toString();
    expect(form).toContain('<label for="filter-fixed">Fixed</label>\n<select id="filter-fixed" name="fixed">');
    expect(form).toContain('<option value="false" selected>No fix yet</option>');
    expect(form.indexOf('filter-fixed')).toBeGreaterThan(form.indexOf('filter-version'));
  });
});

describe("the service's own filters, from the table", () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());
  const names = Object.keys(LIST_FILTERS);

  it('are the parameters of the list, the MCP list tool and the change stream (those a stream can follow)', async () => {
    const document = (await app.inject('/openapi.json')).json();
    expect(listParameters(document).map((p) => p.name)).toEqual(['limit', 'cursor', ...names]);
    expect(tools.find((tool) => tool.name === 'list_cve_records')!.input).toBe(ListQuery);
    const streamed = Object.keys(ChangeStreamQuery.properties).filter((name) => name in LIST_FILTERS);
    expect(streamed).toEqual(names.filter((name) => LIST_FILTERS[name as keyof typeof LIST_FILTERS].stream));
    expect(streamed).not.toContain('version');
  });

  it('are each read by the core, and named in /llms.txt', async () => {
    expect(Object.keys(FILTER_READERS)).toEqual(names);
    const llms = (await app.inject('/llms.txt')).body;
    for (const name of names) expect(llms).toContain(`\`${name}\``);
  });

  it("with a form field are the page's form, in the table's order", async () => {
    const page = (await app.inject({ url: '/', headers: { accept: 'text/html' } })).body;
    const fields = [...page.matchAll(/<label for="filter-([a-z_]+)">/g)].map((match) => match[1]);
    expect(fields).toEqual(names.filter((name) => LIST_FILTERS[name as keyof typeof LIST_FILTERS].form !== undefined));
  });
});
