// Issue 14, item 5: the Atom feeds of newly published records, read by a real feed parser (feedsmith) and
// checked for well-formedness by a strict XML validator, whatever the data holds.
import { XMLValidator } from 'fast-xml-parser';
import type { FastifyInstance } from 'fastify';
import { parseAtomFeed } from 'feedsmith';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogFile, type CatalogRecord, FEED_ENTRIES } from '../../../src/contract/index.js';
import { compareListingOrder } from '../../../src/core/cve-id.js';
import { buildTestApp, fixtureCatalog, loadDefaultCatalog, TEST_BASE_URL } from '../../support/app.js';

const FEED = '/feeds/records.atom';

let app: FastifyInstance;
let catalog: CatalogFile;
beforeAll(async () => {
  catalog = await loadDefaultCatalog();
  app = await buildTestApp({ catalog });
});
afterAll(() => app.close());

/** The feed at a URL, checked well-formed and parsed as Atom. */
async function feedAt(target: FastifyInstance, url: string) {
  const response = await target.inject({ url });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
  expect(XMLValidator.validate(response.body)).toBe(true);
  return { response, feed: parseAtomFeed(response.body) };
}

/** The records a feed should list: published ones, newest publication first, newer id first on a day. */
function newestPublished(records: readonly CatalogRecord[]): CatalogRecord[] {
  return records
    .filter((record) => record.status === 'public' && record.published !== undefined)
    .sort((a, b) => b.published!.localeCompare(a.published!) || compareListingOrder(a.id, b.id))
    .slice(0, FEED_ENTRIES);
}

describe('GET /feeds/records.atom', () => {
  it('lists the most recently published records, newest first, with every element Atom requires', async () => {
    const { feed } = await feedAt(app, FEED);
    expect(feed.id).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(feed.title?.value).toBe('Newly published CVE records');
    expect(Date.parse(feed.updated!)).not.toBeNaN();
    expect(feed.links).toContainEqual({ rel: 'self', type: 'application/atom+xml', href: `${TEST_BASE_URL}${FEED}` });
    expect(feed.authors?.[0]?.name).toBeTruthy();

    const expected = newestPublished(catalog.records);
    expect(expected).toHaveLength(FEED_ENTRIES);
    const entries = feed.entries ?? [];
    expect(entries.map((entry) => entry.title?.value)).toEqual(expected.map((record) => `${record.id} (${record.project})`));
    const ids = new Set(entries.map((entry) => entry.id));
    expect(ids.size).toBe(entries.length);
    entries.forEach((entry, i) => {
      const record = expected[i]!;
      expect(entry.id).toMatch(/^urn:uuid:/);
      expect(entry.links).toContainEqual({ rel: 'alternate', type: 'text/html', href: `${TEST_BASE_URL}/records/${record.id}` });
      expect(entry.links).toContainEqual({ rel: 'related', type: 'text/html', href: record.url });
      expect(entry.published).toBe(`${record.published}T00:00:00Z`);
      expect(entry.updated).toBe(record.modified ?? `${record.published}T00:00:00Z`);
      expect(entry.authors?.[0]?.name).toBe('CVE Program');
      expect(entry.summary?.value).toBe(record.summary);
    });
    // The feed was updated when its newest entry was.
    expect(feed.updated).toBe(
      entries
        .map((entry) => entry.updated!)
        .sort((a, b) => Date.parse(a) - Date.parse(b))
        .at(-1),
    );
  });

  it('lists one project with ?project=, under the same entry ids as the whole feed', async () => {
    const whole = (await feedAt(app, FEED)).feed;
    const project = whole.entries![0]!.categories![0]!.term!;
    const { feed } = await feedAt(app, `${FEED}?project=${encodeURIComponent(project)}`);
    expect(feed.title?.value).toBe(`Newly published CVE records: ${project}`);
    expect(feed.links).toContainEqual({
      rel: 'self',
      type: 'application/atom+xml',
      href: `${TEST_BASE_URL}${FEED}?project=${encodeURIComponent(project)}`,
    });
    const expected = newestPublished(catalog.records.filter((record) => record.project === project));
    expect(feed.entries?.map((entry) => entry.title?.value)).toEqual(expected.map((record) => `${record.id} (${project})`));
    expect(feed.entries?.every((entry) => entry.categories?.[0]?.term === project)).toBe(true);
    expect(feed.entries![0]!.id).toBe(whole.entries![0]!.id);
    expect(feed.id).not.toBe(whole.id);
  });

  it('gives a valid feed with no entries for a project without published records', async () => {
    const { feed } = await feedAt(app, `${FEED}?project=${encodeURIComponent('No such project')}`);
    expect(feed.entries ?? []).toEqual([]);
    expect(feed.updated).toBe(`${catalog.lastVerified}T00:00:00Z`);
  });

  it('rejects an unknown parameter with an ErrorResponse', async () => {
    const response = await app.inject({ url: `${FEED}?projet=curl` });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('unknown_parameter');
  });

  it('escapes markup and drops the characters XML 1.0 forbids, whatever the data holds', async () => {
    const project = `<b>"Tom" & 'Jerry'</b>`;
    const summary = 'Overflow in <script>alert(1)</script> & "quotes"\u0000\u0001\u0008\u000b\u001f\uffff\ud800 ]]> tab\tend';
    const hostile = await buildTestApp({
      catalog: {
        ...fixtureCatalog,
        records: [
          { id: 'CVE-2025-1', project, status: 'public', url: 'https://example.org/a?b=1&c=<2>', summary, published: '2025-01-01' },
        ],
      },
    });
    try {
      for (const url of [FEED, `${FEED}?project=${encodeURIComponent(project)}`]) {
        const { feed } = await feedAt(hostile, url);
        const entry = feed.entries![0]!;
        expect(entry.title?.value).toBe(`CVE-2025-1 (${project})`);
        expect(entry.summary?.value).toBe('Overflow in <script>alert(1)</script> & "quotes" ]]> tab\tend');
        expect(entry.links).toContainEqual({ rel: 'related', type: 'text/html', href: 'https://example.org/a?b=1&c=<2>' });
        expect(entry.categories?.[0]?.term).toBe(project);
      }
    } finally {
      await hostile.close();
    }
  });

  it('writes tab, newline and carriage return as character references, so a reader gets them back (issue 24, item 8)', async () => {
    // An XML parser replaces each of them in an attribute by a space, and a carriage return in text by a
    // line feed: only a character reference carries them through.
    const project = 'Tab\there, line\nfeed, carriage\r\nreturn';
    const hostile = await buildTestApp({
      catalog: {
        ...fixtureCatalog,
        records: [{ id: 'CVE-2025-1', project, status: 'public', url: null, summary: 'a\r\nb', published: '2025-01-01' }],
      },
    });
    try {
      for (const url of [FEED, `${FEED}?project=${encodeURIComponent(project)}`]) {
        const { response, feed } = await feedAt(hostile, url);
        const attributes = [...response.body.matchAll(/\s[a-z:]+="([^"]*)"/g)].map((match) => match[1]!);
        expect(attributes.filter((value) => /[\t\n\r]/.test(value))).toEqual([]);
        expect(response.body).not.toContain('\r');
        const entry = feed.entries![0]!;
        expect(entry.categories?.[0]?.term).toBe(project);
        expect(entry.title?.value).toBe(`CVE-2025-1 (${project})`);
        expect(entry.summary?.value).toBe('a\r\nb');
      }
    } finally {
      await hostile.close();
    }
  });

  it('answers a held ETag or Last-Modified with 304, and changes its ETag with the dataset', async () => {
    const first = await app.inject({ url: FEED });
    expect(first.headers['cache-control']).toBe('public, max-age=300');
    const again = await app.inject({ url: FEED, headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const since = await app.inject({ url: FEED, headers: { 'if-modified-since': String(first.headers['last-modified']) } });
    expect(since.statusCode).toBe(304);

    const changed = await buildTestApp({ catalog: { ...catalog, lastVerified: '2030-01-01' } });
    try {
      const other = await changed.inject({ url: FEED, headers: { 'if-none-match': String(first.headers.etag) } });
      expect(other.statusCode).toBe(200);
      expect(other.headers.etag).not.toBe(first.headers.etag);
    } finally {
      await changed.close();
    }
  });

  it('is announced by the pages: every page links the feed, a project view and a record page their project feed', async () => {
    const home = (await app.inject({ url: '/', headers: { accept: 'text/html' } })).body;
    expect(home).toContain(`<link rel="alternate" type="application/atom+xml" href="${FEED}"`);
    const record = catalog.records.find((r) => r.status === 'public')!;
    const projectFeed = `${FEED}?project=${encodeURIComponent(record.project)}`.replaceAll('&', '&amp;');
    const page = (await app.inject({ url: `/records/${record.id}` })).body;
    expect(page).toContain(`<link rel="alternate" type="application/atom+xml" href="${projectFeed}"`);
    const view = (await app.inject({ url: `/?project=${encodeURIComponent(record.project)}`, headers: { accept: 'text/html' } })).body;
    expect(view).toContain(`href="${projectFeed}"`);
  });
});
