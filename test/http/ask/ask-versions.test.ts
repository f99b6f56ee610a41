// Issue 27, "every surface": a question naming a version ("openssl 3.0.7", "linux 6.1.5 use after free")
// is answered with the records the list gives for `project=…&version=…` over the shipped data, so the two
// doors agree by construction of the records' own affected entries; a version no record places gives way
// to the project's records and says so; a version without a project is set aside and says so.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CveRecordPage } from '../../../src/contract/index.js';
import { understandQuery } from '../../../src/core/search/query-understanding.js';
import { buildTestApp, loadDefaultCatalog } from '../../support/app.js';

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp({ catalog: await loadDefaultCatalog() });
});
afterAll(() => app.close());

const idOf = (name: string) => name.split(' ')[0]!;

async function ask(query: string, limit = 50): Promise<{ ids: string[]; understood: string[] }> {
  const response = await app.inject({ url: `/ask?query=${encodeURIComponent(query)}&limit=${limit}` });
  expect(response.statusCode).toBe(200);
  const body = response.json() as { results: { name: string }[]; understood: string[] };
  return { ids: body.results.map((result) => idOf(result.name)), understood: body.understood };
}

/** Every record the list gives for the project at the version, page after page. */
async function listed(project: string, version: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const response = await app.inject({
      url: `/api/v1/cve-records?project=${encodeURIComponent(project)}&version=${encodeURIComponent(version)}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    });
    expect(response.statusCode).toBe(200);
    const page = response.json() as CveRecordPage;
    ids.push(...page.records.map((record) => record.id));
    cursor = page.pagination.nextCursor;
  }
  return ids;
}

describe('/ask reads a version beside a project', () => {
  it.each([
    ['openssl 3.0.7', 'OpenSSL', '3.0.7'],
    ['is openssl v3.0.7 affected?', 'OpenSSL', '3.0.7'],
    ['linux 6.1.5', 'Linux', '6.1.5'],
  ])('"%s" answers the records the list gives for project=%s&version=%s', async (question, project, version) => {
    const expected = await listed(project, version);
    expect(expected.length).toBeGreaterThan(0);
    const { ids, understood } = await ask(question);
    expect(understood).toContain(`version ${version}`);
    // Every answer is a record the version affects; all of them when they fit in one answer.
    expect(ids.filter((id) => !expected.includes(id))).toEqual([]);
    expect(ids.length).toBe(Math.min(50, expected.length));
  });

  it('ranks words among the records the version affects', async () => {
    const affected = await listed('Linux', '6.1.5');
    const { ids, understood } = await ask('linux 6.1.5 use after free', 10);
    expect(ids).toHaveLength(10);
    expect(ids.filter((id) => !affected.includes(id))).toEqual([]);
    expect(understood.some((line) => /^version 6\.1\.5 of Linux: \d+ records say it is affected$/.test(line))).toBe(true);
  });

  it('gives way to the project’s records when no record says the version is affected, and says so', async () => {
    expect(await listed('OpenSSL', '99.1')).toEqual([]);
    const { ids, understood } = await ask('openssl 99.1', 5);
    expect(ids.length).toBeGreaterThan(0);
    expect(understood).toContain('version 99.1 of OpenSSL: no record says it is affected');
    expect(understood).toContain('no record says version 99.1 is affected: showing any version');
  });

  it('sets a version aside when the question names no project to check it against', async () => {
    const { ids, understood } = await ask('tls 1.3', 5);
    expect(ids.length).toBeGreaterThan(0);
    expect(understood).toContain('version 1.3: no project named to check it against');
  });
});

describe('what a question reads as a version', () => {
  it.each([
    ['openssl 3.0.7', '3.0.7'],
    ['openssl 1.0.2k', '1.0.2k'],
    ['log4j v2.14.1', '2.14.1'],
    ['kernel 5.10.0-rc1', '5.10.0-rc1'],
    ['jenkins 2.401.1 xss', '2.401.1'],
  ])('%s → %s', (question, version) => {
    expect(understandQuery(question).version).toBe(version);
  });

  it.each(['CVE-2021-44228', 'linux 2024', 'cvss 9.8 in cisco', 'cvss >= 7.5', 'openssl 3'])(
    '%s has none: an identifier, a year, a score and a bare number are read as what they are',
    (question) => {
      expect(understandQuery(question).version).toBeUndefined();
    },
  );

  it('checks the first version and says the others were not', () => {
    const understanding = understandQuery('openssl 3.0.7 or 3.0.8');
    expect(understanding.version).toBe('3.0.7');
    expect(understanding.explanation).toContain('only the first version is checked (not 3.0.8)');
  });
});
