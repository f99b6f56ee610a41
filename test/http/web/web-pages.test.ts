// Issue 7, the pages as HTML (what a browser without JavaScript gets): the list paged by cursor, the
// filters, search through the /ask search, record pages, and what a bad link shows.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NlwebResponse } from '../../../src/contract/index.js';
import { PAGE_CSP } from '../../../src/http/web/content-security-policy.js';
import { PAGE_SIZE, SEARCH_RESULTS } from '../../../src/http/web/home-page.js';
import { buildTestApp, fixtureCatalog, fixtureOrder, loadDefaultCatalog } from '../../support/app.js';

let app: FastifyInstance;
let fixture: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp({ catalog: await loadDefaultCatalog() });
  fixture = await buildTestApp({
    catalog: {
      ...fixtureCatalog,
      records: [
        ...fixtureCatalog.records,
        {
          id: 'CVE-2020-0001',
          project: '<script>alert(1)</script>',
          status: 'public',
          url: 'https://www.cve.org/CVERecord?id=CVE-2020-0001',
        },
      ],
    },
  });
});
afterAll(async () => {
  await app.close();
  await fixture.close();
});

const page = (server: FastifyInstance, url: string) => server.inject({ url, headers: { accept: 'text/html' } });
const decodeAmpersands = (text: string) => text.replaceAll('&amp;', '&');
/** Record ids of the table rows, in order. */
const rowIds = (body: string) => [...body.matchAll(/<th scope="row"><a href="\/records\/([^"]+)">/g)].map((m) => m[1]!);
const nextHref = (body: string) => /<a href="([^"]+)" rel="next"/.exec(body)?.[1];
/** Each row's record id with what its severity and KEV cells show: the severity badge's rating (null: not scored) and whether it is marked known exploited. */
const riskOfRows = (body: string) =>
  [
    ...body.matchAll(
      /<th scope="row"><a href="\/records\/([^"]+)">[\s\S]*?<td class="severity-cell">([\s\S]*?)<\/td>\s*<td class="kev-cell">([\s\S]*?)<\/td>/g,
    ),
  ].map((m) => ({
    id: m[1]!,
    severity: /class="severity severity-(\w+)"/.exec(m[2]!)?.[1] ?? (m[2]!.includes('not scored') ? null : 'missing'),
    kev: m[3] === '<span class="kev">Known exploited</span>' ? true : m[3] === '' ? false : 'unexpected',
  }));
/** What the details operation says of a record's severity and KEV. */
const riskOf = async (id: string) => {
  const details = (await app.inject(`/api/v1/cve-records/${id}/details`)).json() as { severity: string | null; kev: unknown };
  return { id, severity: details.severity, kev: details.kev !== null };
};

describe('the list at /', () => {
  it('shows the first page, newest first, with the page policy and a link to the next page', async () => {
    const response = await page(app, '/');
    expect(response.headers['content-security-policy']).toBe(PAGE_CSP);
    const { records } = (await app.inject('/api/v1/cve-records?limit=50')).json() as { records: { id: string }[] };
    expect(rowIds(response.body)).toEqual(records.map((r) => r.id));
    expect(rowIds(response.body)).toHaveLength(PAGE_SIZE);
    expect(response.body).toContain('<h2 id="results-heading" tabindex="-1">17,328 records</h2>');
    expect(nextHref(response.body)).toMatch(/^\/\?cursor=/);
  });

  it('pages by cursor to the last page, keeping the filters, with a way back to the first', async () => {
    const expected = (await loadDefaultCatalog()).records.filter((r) => r.project === 'Linux').length;
    let url = '/?project=Linux';
    const ids: string[] = [];
    for (;;) {
      const body = (await page(app, url)).body;
      ids.push(...rowIds(body));
      if (url !== '/?project=Linux') {
        expect(body).toContain('<a href="/?project=Linux" data-enhance>First page</a>');
        expect(body).toContain('(a later page)');
      }
      const next = nextHref(body);
      if (!next) break;
      url = decodeAmpersands(next);
      expect(url).toMatch(/^\/\?project=Linux&cursor=/);
    }
    expect(ids).toHaveLength(expected);
    expect(new Set(ids).size).toBe(expected);
    expect(Math.ceil(expected / PAGE_SIZE)).toBeGreaterThan(2);
  });

  it('filters by exact project and status, and shows the filters in the form', async () => {
    const { body } = await page(app, '/?project=OpenSSL&status=assigned-no-public-record');
    const expected = (await loadDefaultCatalog()).records.filter(
      (r) => r.project === 'OpenSSL' && r.status === 'assigned-no-public-record',
    );
    expect(rowIds(body).sort()).toEqual(expected.map((r) => r.id).sort());
    expect(body).toContain(`${expected.length} records · project OpenSSL · status Assigned, not yet public`);
    expect(body).toContain('name="project" value="OpenSSL"');
    expect(body).toContain('<option value="assigned-no-public-record" selected>');
    expect(body).toMatch(/<title>Records: project OpenSSL, status Assigned, not yet public · Public CVE Records<\/title>/);
  });

  it('treats empty fields as absent, as a form without JavaScript sends them', async () => {
    expect(rowIds((await page(fixture, '/?project=&status=')).body)).toEqual(rowIds((await page(fixture, '/')).body));
    expect(rowIds((await page(fixture, '/')).body)).toEqual([...fixtureOrder, 'CVE-2020-0001']);
  });

  it('suggests the exact spelling of a project typed in another case', async () => {
    const { body } = await page(fixture, '/?project=OPENSSL');
    expect(body).toContain('No records with project OPENSSL.');
    expect(body).toMatch(/Did you mean\s+<a href="\/\?project=openssl" data-enhance><bdi>openssl<\/bdi><\/a>\?/);
  });

  it('suggests the most common projects in the project field', async () => {
    const { body } = await page(app, '/');
    const suggested = [...body.matchAll(/<option value="([^"]+)"><\/option>/g)].map((m) => m[1]);
    expect(suggested.slice(0, 2)).toEqual(['Linux', 'MySQL Server']);
  });
});

describe('severity and KEV (issue 15, item 5)', () => {
  it("shows each listed record's highest CVSS severity and KEV as its details do", async () => {
    const { body } = await page(app, '/');
    expect(body).toContain('<th scope="col">Severity</th><th scope="col">Exploitation</th>');
    const rows = riskOfRows(body);
    expect(rows.map((row) => row.id)).toEqual(rowIds(body));
    expect(rows).toEqual(await Promise.all(rows.map((row) => riskOf(row.id))));
    // The first page holds scored and unscored records alike, so both kinds of cell are checked.
    expect(rows.some((row) => row.severity === null) && rows.some((row) => row.severity !== null)).toBe(true);
  });

  it('shows them in the search results: CVE-2025-0282 is critical and known exploited', async () => {
    const { body } = await page(app, '/?query=CVE-2025-0282');
    expect(body).toContain('<th scope="col">Severity</th><th scope="col">Exploitation</th><th scope="col">Score</th>');
    expect(riskOfRows(body)).toEqual([{ id: 'CVE-2025-0282', severity: 'critical', kev: true }]);
    const openssl = riskOfRows((await page(app, '/?query=openssl')).body);
    expect(openssl.length).toBeGreaterThan(0);
    expect(openssl).toEqual(await Promise.all(openssl.map((row) => riskOf(row.id))));
  });

  it('filters by severity and KEV as the API does, and shows the filters in the heading, the title and the form', async () => {
    const { body } = await page(app, '/?severity=critical&kev=true');
    const api = (await app.inject('/api/v1/cve-records?severity=critical&kev=true&limit=50')).json() as {
      records: { id: string }[];
      pagination: { total: number };
    };
    expect(rowIds(body)).toEqual(api.records.map((r) => r.id));
    expect(rowIds(body)).toContain('CVE-2025-0282');
    expect(new Set(riskOfRows(body).map(({ severity, kev }) => `${severity} ${kev}`))).toEqual(new Set(['critical true']));
    expect(body).toContain(
      `<h2 id="results-heading" tabindex="-1">${api.pagination.total} records · severity Critical · Known exploited</h2>`,
    );
    expect(body).toMatch(/<title>Records: severity Critical, Known exploited · Public CVE Records<\/title>/);
    expect(body).toContain('<option value="critical" selected>Critical</option>');
    expect(body).toContain('<option value="true" selected>Known exploited</option>');

    const notExploited = await page(app, '/?project=OpenSSL&kev=false');
    expect(notExploited.body).toContain('· project OpenSSL · Not known exploited</h2>');
    expect(riskOfRows(notExploited.body).every((row) => row.kev === false)).toBe(true);
    expect(notExploited.body).toContain('<option value="false" selected>Not known exploited</option>');
  });

  it('lists the records a version of a project affects as the API does, each with the entry that says why (issue 27)', async () => {
    const { body } = await page(app, '/?project=Linux&version=6.1.5');
    const api = (await app.inject('/api/v1/cve-records?project=Linux&version=6.1.5&limit=50')).json() as {
      records: { id: string }[];
      pagination: { total: number; nextCursor: string | null };
    };
    expect(rowIds(body)).toEqual(api.records.map((r) => r.id));
    expect(body).toContain(`${api.pagination.total} records · project Linux · version 6.1.5 affected</h2>`);
    expect(body).toContain('<th scope="col">Why 6.1.5 is affected</th>');
    const reasons = [...body.matchAll(/<td class="why">([^<]*)<\/td>/g)].map((m) => decodeAmpersands(m[1]!));
    expect(reasons).toHaveLength(api.records.length);
    // Each names the product and the entry of the record that places 6.1.5 (a range, or the version itself).
    for (const reason of reasons) expect(reason).toMatch(/^\S.*: .*\S/);
    expect(body).toContain('id="filter-version" name="version" value="6.1.5"');
    // The next page keeps the version.
    expect(decodeAmpersands(nextHref(body)!)).toMatch(/^\/\?project=Linux&version=6\.1\.5&cursor=/);
    const second = await page(app, decodeAmpersands(nextHref(body)!));
    expect(second.statusCode).toBe(200);
    expect(rowIds(second.body)[0]).not.toBe(rowIds(body)[0]);
  });

  it('keeps the filters in every page link, to the last page, and refuses a cursor made for other filters', async () => {
    const { pagination } = (await app.inject('/api/v1/cve-records?kev=true&limit=1')).json() as { pagination: { total: number } };
    let url = '/?kev=true';
    const ids: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const body = (await page(app, url)).body;
      ids.push(...rowIds(body));
      expect(riskOfRows(body).every((row) => row.kev === true)).toBe(true);
      if (cursor) expect(body).toContain('<a href="/?kev=true" data-enhance>First page</a>');
      const next = nextHref(body);
      if (!next) break;
      url = decodeAmpersands(next);
      expect(url).toMatch(/^\/\?kev=true&cursor=/);
      cursor = new URLSearchParams(url.slice(2)).get('cursor')!;
    }
    expect(ids).toHaveLength(pagination.total);
    expect(new Set(ids).size).toBe(pagination.total);
    expect(cursor).toBeDefined();
    for (const other of ['kev=false', 'severity=critical&kev=true', '']) {
      const response = await page(app, `/?${other}&cursor=${encodeURIComponent(cursor!)}`);
      expect(response.statusCode, other).toBe(400);
      expect(response.body).toContain('or was made for other filters');
    }
  });

  it('offers every severity and the KEV choices in the filter form, and the projects operation to the project field', async () => {
    const { body } = await page(app, '/');
    const options = (name: string) =>
      [
        ...new RegExp(`<select id="filter-${name}" name="${name}"[^>]*>([\\s\\S]*?)</select>`)
          .exec(body)![1]!
          .matchAll(/<option value="([^"]*)"/g),
      ].map((m) => m[1]);
    expect(options('severity')).toEqual(['', 'critical', 'high', 'medium', 'low', 'none']);
    expect(options('kev')).toEqual(['', 'true', 'false']);
    expect(body).toContain('<label for="filter-severity">Severity</label>');
    expect(body).toContain('<label for="filter-kev">Known exploited (CISA KEV)</label>');
    expect(body).toContain('data-projects="/api/v1/projects"');
  });
});

describe('search at /?query=', () => {
  it('shows the records /ask finds for the query, in its order, with its scores and its reading', async () => {
    const query = 'openssl since 2024';
    const { body } = await page(app, `/?query=${encodeURIComponent(query)}`);
    const ask = (await app.inject(`/ask?query=${encodeURIComponent(query)}&limit=${SEARCH_RESULTS}`)).json() as NlwebResponse;
    expect(ask.results.length).toBeGreaterThan(0);
    expect(rowIds(body)).toEqual(ask.results.map((r) => r.name.split(' ')[0]));
    const scores = [...body.matchAll(/<td class="number">([\d.]+)<\/td>/g)].map((m) => m[1]);
    expect(scores).toEqual(ask.results.map((r) => r.score.toFixed(2)));
    for (const line of ask.understood!) expect(body).toContain(`<span>${line.replaceAll('>', '&gt;')}</span>`);
    expect(body).toContain('value="openssl since 2024"');
  });

  it('says so when nothing matches', async () => {
    const { body } = await page(fixture, '/?query=CVE-1999-0001');
    expect(body).toContain('No records match “CVE-1999-0001”.');
    expect(rowIds(body)).toEqual([]);
  });
});

describe('bad links', () => {
  it.each([
    ['/?status=published', '“status” is “published”: it is public or assigned-no-public-record (assigned, not yet public).'],
    ['/?cursor=forged', 'This page link is not valid any more'],
    ['/?project=a&project=b', '“project” is given more than once.'],
    ['/?severity=severe', '“severity” is “severe”: it is critical, high, medium, low or none.'],
    ['/?severity=high&severity=low', '“severity” is given more than once.'],
    ['/?kev=yes', '“kev” is “yes”: it is true (known exploited) or false (not known exploited).'],
    [`/?query=${'x'.repeat(513)}`, '“query” is longer than 512 characters.'],
    ['/?version=3.0.7', '`version` needs `project`, `purl` or `cpe`: the version of what.'],
    ['/?project=OpenSSL&version=3.0.7%3Cb%3E', '“3.0.7&lt;b&gt;” is not a valid version.'],
  ])('%s is a 400 page saying what is wrong', async (url, message) => {
    const response = await page(app, url);
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain(message);
    expect(response.headers['cache-control']).toBe('no-store');
  });
});

describe('record pages at /records/{id}', () => {
  it('shows every field, the summary and links to the project, the public record and the JSON', async () => {
    const response = await page(app, '/records/CVE-2024-6119');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(response.headers.etag).toBeDefined();
    const { body } = response;
    expect(body).toContain('<h1>CVE-2024-6119</h1>');
    expect(body).toContain('<a href="/?project=OpenSSL" data-enhance><bdi>OpenSSL</bdi></a>');
    expect(body).toContain('<span class="status status-public">Public</span>');
    expect(body).toContain('<time datetime="2024-09-03">2024-09-03</time>');
    expect(body).toContain('href="https://www.cve.org/CVERecord?id=CVE-2024-6119"');
    expect(body).toContain('Possible denial of service in X.509 name checks');
    expect(body).toContain('<a href="/api/v1/cve-records/CVE-2024-6119" type="application/json">');
  });

  it('shows the details: severity, SSVC, every CVSS vector, weaknesses, affected versions, references', async () => {
    const details = (await app.inject({ url: '/api/v1/cve-records/CVE-2024-6119/details' })).json();
    const { body } = await page(app, '/records/CVE-2024-6119');
    expect(body).toContain(`<dt>Severity</dt><dd><span class="severity severity-${details.severity}">`);
    expect(details.metrics.length).toBeGreaterThan(0);
    for (const metric of details.metrics) expect(body).toContain(`<code class="vector">${metric.vector}</code>`);
    const escaped = (text: string) =>
      text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
    for (const problem of details.problemTypes) expect(body).toContain(escaped(problem.description));
    expect(body).toContain(`<dt>Affected</dt>`);
    expect(body).toContain(escaped(details.affected[0].versions));
    expect(body).toContain(`href="${details.references[0].url}"`);
    expect(body).toContain('<a href="/api/v1/cve-records/CVE-2024-6119/details" type="application/json">');
    if (details.ssvc) expect(body).toContain(`<dt>SSVC</dt><dd>Exploitation ${details.ssvc.exploitation}`);
  });

  it('says a record without public record has none yet', async () => {
    const { body } = await page(fixture, '/records/CVE-2023-0001');
    expect(body).toContain('Assigned, not yet public');
    expect(body).toContain('<dt>Public record</dt>\n<dd>None yet.</dd>');
  });

  it.each(['/records/CVE-1999-0001', '/records/not-an-id'])('%s is a 404 page with a search form', async (url) => {
    const response = await page(app, url);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('<form class="search-form" role="search" action="/" method="get" data-enhance>');
  });

  it('escapes what it shows: a record cannot inject markup', async () => {
    const { body } = await page(fixture, '/records/CVE-2020-0001');
    expect(body).not.toContain('<script>alert(1)</script>');
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect((await page(fixture, '/records/%3Cb%3E')).body).toContain('<h1>No record &lt;b&gt;</h1>');
  });
});

describe('defence in depth (issue 11, item 13)', () => {
  const hostile = [{ id: 'CVE-2020-0002', project: 'evil\u202Eelif.exe\u200B', status: 'public' as const, url: 'javascript:alert(1)' }];
  let served: FastifyInstance;
  beforeAll(async () => {
    // A snapshot built around validation (as a test can): the page must still never link script.
    served = await buildTestApp({ catalog: { ...fixtureCatalog, records: [...fixtureCatalog.records, ...hostile] } });
  });
  afterAll(() => served.close());

  it('never renders a record url that is not http(s) as a link', async () => {
    for (const url of ['/records/CVE-2020-0002', `/?project=${encodeURIComponent(hostile[0]!.project)}`]) {
      const { body } = await page(served, url);
      expect(body).toContain('CVE-2020-0002');
      expect(body).not.toContain('href="javascript:');
    }
  });

  it('isolates project names with <bdi>, so right-to-left overrides and zero-width characters cannot reorder the page', async () => {
    const { body } = await page(served, '/records/CVE-2020-0002');
    expect(body).toContain('<bdi>evil\u202Eelif.exe\u200B</bdi>');
    const list = await page(served, '/');
    expect(list.body).toContain('<bdi>evil\u202Eelif.exe\u200B</bdi>');
  });
});

describe('files of the pages', () => {
  it.each([
    ['/web/page.css', 'text/css; charset=utf-8'],
    ['/web/page.js', 'text/javascript; charset=utf-8'],
    ['/web/favicon.svg', 'image/svg+xml'],
    ['/browser-tools.js', 'text/javascript; charset=utf-8'],
    ['/docs/assets/swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
    ['/docs/assets/swagger-ui.css', 'text/css; charset=utf-8'],
    ['/docs/assets/api-reference.js', 'text/javascript; charset=utf-8'],
    ['/docs/assets/api-reference.css', 'text/css; charset=utf-8'],
  ])('%s is served as %s, cacheable', async (url, type) => {
    const response = await app.inject(url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(type);
    expect(response.headers['cache-control']).toMatch(/^public, max-age=/);
    expect((await app.inject({ url, headers: { 'if-none-match': String(response.headers.etag) } })).statusCode).toBe(304);
  });
});

describe('fingerprinted files', () => {
  /** The files a page loads: its stylesheets, scripts and icon. */
  async function loaded(url: string): Promise<string[]> {
    const { body } = await app.inject({ url, headers: { accept: 'text/html' } });
    return [...body.matchAll(/<(?:link rel="(?:stylesheet|icon)"|script) (?:href|src)="([^"]+)"/g)].map((match) => match[1] as string);
  }

  it.each(['/', '/docs', '/records/CVE-2020-0002'])('%s loads only fingerprinted files, each kept for a year', async (url) => {
    const files = await loaded(url);
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) {
      expect(file).toMatch(/\.[0-9a-f]{16}\.(css|js|svg)$/);
      const response = await app.inject(file);
      expect(response.statusCode, file).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      // The same bytes as at the path without the fingerprint, which old links still reach.
      const plain = await app.inject(file.replace(/\.[0-9a-f]{16}\./, '.'));
      expect(plain.rawPayload.equals(response.rawPayload)).toBe(true);
      expect(plain.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    }
  });

  it('a fingerprint that names no file is a 404', async () => {
    const [stylesheet] = await loaded('/');
    expect((await app.inject(String(stylesheet).replace(/\.[0-9a-f]{16}\./, '.0000000000000000.'))).statusCode).toBe(404);
  });
});
