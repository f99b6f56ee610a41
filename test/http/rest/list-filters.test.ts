// The list's filters on details (severity, kev, cwe, published_since, published_before) over HTTP, on real
// records served from a JSON catalog and from a snapshot file: each selects what the records' details say.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CveRecordDetails, CveRecordPage } from '../../../src/contract/index.js';
import { type DetailsFixture, serveDetailsFixture } from '../../support/details-fixture.js';

let fixture: DetailsFixture;
let details: CveRecordDetails[];

beforeAll(async () => {
  fixture = await serveDetailsFixture();
  const all = (await fixture.apps.json.inject('/api/v1/cve-records?limit=100')).json() as CveRecordPage;
  const batch = await fixture.apps.json.inject({
    method: 'POST',
    url: '/api/v1/cve-records/details/batch',
    payload: { recordIds: all.records.map((record) => record.id) },
  });
  details = batch.json().records;
});

afterAll(() => fixture.close());

/** Every id a filtered list walks to, two records a page. */
async function walk(from: 'json' | 'snapshot', query: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const response = await fixture.apps[from].inject(
      `/api/v1/cve-records?limit=2&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json() as CveRecordPage;
    ids.push(...page.records.map((record) => record.id));
    cursor = page.pagination.nextCursor;
  }
  return ids;
}

const published = (d: CveRecordDetails) => d.datePublished?.slice(0, 10);
const filters: [string, (d: CveRecordDetails) => boolean][] = [
  ['severity=critical', (d) => d.severity === 'critical'],
  ['severity=medium', (d) => d.severity === 'medium'],
  ['kev=true', (d) => d.kev !== null],
  ['kev=false&status=public', (d) => d.kev === null && d.status === 'public'],
  ['cwe=CWE-78', (d) => d.problemTypes.some((type) => type.cweId === 'CWE-78')],
  ['cwe=cwe-787', (d) => d.problemTypes.some((type) => type.cweId === 'CWE-787')],
  ['published_since=2024-01-01', (d) => (published(d) ?? '') >= '2024-01-01'],
  ['published_before=2020-01-01', (d) => published(d) !== undefined && published(d)! < '2020-01-01'],
  [
    'severity=high&kev=false&published_since=2019-01-01',
    (d) => d.severity === 'high' && d.kev === null && (published(d) ?? '') >= '2019-01-01',
  ],
];

describe('list filters on details', () => {
  it('have records to select in the fixture', () => {
    for (const [query, matches] of filters.slice(0, 7)) expect(details.filter(matches).length, query).toBeGreaterThan(0);
  });

  for (const from of ['json', 'snapshot'] as const) {
    it(`select what each record's details say, in listing order (served from a ${from} catalog)`, async () => {
      for (const [query, matches] of filters) expect(await walk(from, query), query).toEqual(details.filter(matches).map((d) => d.id));
    });
  }

  it('refuse a cursor issued for other filters with invalid_cursor', async () => {
    const first = (await fixture.apps.snapshot.inject('/api/v1/cve-records?limit=1&kev=false')).json() as CveRecordPage;
    const cursor = encodeURIComponent(first.pagination.nextCursor!);
    const reused = await fixture.apps.snapshot.inject(`/api/v1/cve-records?limit=1&kev=true&cursor=${cursor}`);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.code).toBe('invalid_cursor');
  });

  it.each([
    'severity=Critical',
    'severity=severe',
    'kev=maybe',
    'cwe=79',
    'cwe=CWE-',
    'cwe=CWE-79x',
    'published_since=2024-02-30',
    'published_before=yesterday',
    'published_since=2024-01-01T00:00:00Z',
  ])('are a 400 when malformed: %s', async (query) => {
    const response = await fixture.apps.json.inject(`/api/v1/cve-records?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_parameter');
    expect(response.json().error.message).toContain(query.split('=')[0]);
  });
});
