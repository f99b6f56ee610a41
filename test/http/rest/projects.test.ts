// GET /api/v1/projects: the names the list's `project` filter takes, with aliases and record counts,
// paged by cursor and narrowed by a prefix or a misspelling.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CveRecordPage, ProjectPage } from '../../../src/contract/index.js';
import { buildTestApp, fixtureCatalog } from '../../support/app.js';

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp({
    catalog: { ...fixtureCatalog, projects: [{ name: 'Linux', aliases: ['Linux kernel', 'linux_kernel'] }] },
  });
});

afterAll(() => app.close());

const get = async (query: string) => {
  const response = await app.inject(`/api/v1/projects${query}`);
  return { status: response.statusCode, body: response.json() };
};

async function walk(query: string): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const { status, body } = await get(`?limit=1${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(status).toBe(200);
    names.push(...(body as ProjectPage).projects.map((project) => project.name));
    cursor = (body as ProjectPage).pagination.nextCursor;
  }
  return names;
}

describe('GET /api/v1/projects', () => {
  it('lists every project in name order with its aliases and its records by status, as the list filter counts them', async () => {
    const { status, body } = await get('');
    expect(status).toBe(200);
    const page = body as ProjectPage;
    expect(page.projects.map((project) => project.name)).toEqual(['Linux', 'curl', 'log4j', 'openssl']);
    expect(page.projects[0]).toEqual({
      name: 'Linux',
      aliases: ['Linux kernel', 'linux_kernel'],
      records: { public: 1, 'assigned-no-public-record': 0 },
    });
    for (const project of page.projects) {
      for (const recordStatus of ['public', 'assigned-no-public-record'] as const) {
        const list = (await app.inject(`/api/v1/cve-records?project=${project.name}&status=${recordStatus}`)).json() as CveRecordPage;
        expect(project.records[recordStatus]).toBe(list.pagination.total);
      }
    }
    expect(page.pagination).toEqual({ limit: 20, returned: 4, total: 4, nextCursor: null });
  });

  it('pages by cursor, each project once', async () => {
    expect(await walk('')).toEqual(['Linux', 'curl', 'log4j', 'openssl']);
  });

  it.each([
    ['open', ['openssl']],
    ['OPENSSL', ['openssl']],
    ['opensll', ['openssl']],
    ['linux kernel', ['Linux']],
    ['L', ['Linux', 'log4j']],
    ['nothing-like-it', []],
  ])('with q=%s names %j', async (q, names) => {
    const { body } = await get(`?q=${encodeURIComponent(q)}`);
    expect((body as ProjectPage).projects.map((project) => project.name)).toEqual(names);
    expect(await walk(`&q=${encodeURIComponent(q)}`)).toEqual(names);
  });

  it('refuses a cursor with another q, and malformed parameters, with a 400', async () => {
    const cursor = encodeURIComponent((await get('?limit=1')).body.pagination.nextCursor);
    const reused = await get(`?limit=1&q=L&cursor=${cursor}`);
    expect(reused.status).toBe(400);
    expect(reused.body.error.code).toBe('invalid_cursor');
    for (const query of ['?q=', `?q=${'x'.repeat(201)}`, '?limit=0', '?project=curl', '?cursor=forged']) {
      expect((await get(query)).status, query).toBe(400);
    }
  });

  it('leaves the list answering an unknown project with a 200 and an empty page', async () => {
    const response = await app.inject('/api/v1/cve-records?project=OpenSSL');
    expect(response.statusCode).toBe(200);
    expect(response.json().records).toEqual([]);
  });
});
