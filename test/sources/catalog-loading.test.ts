// The loader refuses a bad catalog with a message naming the file, the record's index and id, and the problem.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCatalogProblems } from '../../src/catalog/catalog-validation.js';
import { CatalogError, readCatalogFile } from '../../src/catalog/json/catalog-file.js';
import { parseCatalogBytes } from '../../src/catalog/json/catalog-text.js';
import { catalogJson } from '../../src/catalog/json/catalog-writer.js';
import { NO_DETAILS } from '../../src/contract/index.js';
import { loadDefaultCatalog } from '../support/app.js';

async function catalogFile(content: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'catalog-')), 'records.json');
  await writeFile(file, content);
  return file;
}

const good = { id: 'CVE-2024-0001', project: 'curl', status: 'public', url: 'https://www.cve.org/CVERecord?id=CVE-2024-0001' };

describe('catalog loading', () => {
  it('reads a valid catalog', async () => {
    const file = await catalogFile(JSON.stringify({ lastVerified: '2025-01-01', records: [good] }));
    expect((await readCatalogFile(file)).records).toEqual([good]);
  });

  it.each([
    [{ ...good, id: 'CVE-24-1' }, '/records/1/id', 'must match pattern'],
    [{ ...good, status: 'published' }, '/records/1/status', 'must be equal to one of the allowed values'],
    [{ ...good, url: 'not a uri' }, '/records/1/url', 'must match format "uri"'],
    [{ ...good, id: 'CVE-2024-0002', extra: 1 }, '/records/1', 'unknown property "extra"'],
    [{ ...good, id: 'CVE-2024-0002', project: undefined }, '/records/1', "must have required property 'project'"],
    [good, '/records/1/id', 'duplicate of /records/0'],
  ])('names the location and problem of %j', async (bad, pointer, problem) => {
    const file = await catalogFile(JSON.stringify({ lastVerified: '2025-01-01', records: [good, bad] }));
    const error = await readCatalogFile(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CatalogError);
    expect((error as CatalogError).message).toContain(file);
    expect((error as CatalogError).problems.some((p) => p.pointer === pointer && p.problem.includes(problem))).toBe(true);
  });

  it('refuses malformed JSON, a missing file and a wrong top level', async () => {
    await expect(readCatalogFile(await catalogFile('{"records": ['))).rejects.toThrow(/not valid JSON/);
    await expect(readCatalogFile('/nonexistent/records.json')).rejects.toThrow(/cannot read/);
    expect(findCatalogProblems({ records: [] })[0]?.problem).toMatch(/lastVerified/);
    expect(findCatalogProblems([])).not.toEqual([]);
  });

  it('refuses a record url that is not http(s), such as javascript: (issue 11, item 13)', () => {
    const catalog = {
      lastVerified: '2025-01-01',
      records: [{ id: 'CVE-2024-1', project: 'x', status: 'public', url: 'javascript:alert(1)' }],
    };
    expect(findCatalogProblems(catalog)).toEqual([
      { pointer: '/records/0/url', id: 'CVE-2024-1', problem: 'must match pattern "^https?://"' },
    ]);
  });

  it('refuses text that is not well-formed Unicode: a lone surrogate anywhere in a record (issue 24, item 2)', () => {
    const catalog = {
      lastVerified: '2025-01-01',
      records: [
        { ...good, id: 'CVE-2024-1', project: 'Widget \ud800' },
        { ...good, id: 'CVE-2024-2', summary: 'ok \ud83d\ude00 then \udc00' },
        {
          ...good,
          id: 'CVE-2024-3',
          details: { ...NO_DETAILS, references: [{ url: 'https://example.org/\udbff', name: 'Advisory', tags: [] }] },
        },
        { ...good, id: 'CVE-2024-4', project: 'A pair 😀 is fine' },
      ],
    };
    expect(findCatalogProblems(catalog)).toEqual([
      { pointer: '/records/0/project', id: 'CVE-2024-1', problem: 'holds a lone surrogate (half of a UTF-16 pair): not well-formed text' },
      { pointer: '/records/1/summary', id: 'CVE-2024-2', problem: 'holds a lone surrogate (half of a UTF-16 pair): not well-formed text' },
      {
        pointer: '/records/2/details/references/0/url',
        id: 'CVE-2024-3',
        problem: 'holds a lone surrogate (half of a UTF-16 pair): not well-formed text',
      },
    ]);
  });

  it('reports every problem, not only the first', () => {
    const problems = findCatalogProblems({
      lastVerified: '2025-01-01',
      records: [
        { ...good, id: 'x' },
        { ...good, id: 'y' },
        { ...good, id: 'z' },
      ],
    });
    expect(problems.map((p) => p.id)).toEqual(['x', 'y', 'z']);
  });
});

describe('the embedded default dataset', () => {
  it('is valid, holds thousands of real records, and shows both statuses', async () => {
    const catalog = await loadDefaultCatalog();
    expect(findCatalogProblems(catalog)).toEqual([]);
    expect(catalog.records.length).toBeGreaterThan(10_000);
    const statuses = new Set(catalog.records.map((r) => r.status));
    expect(statuses).toEqual(new Set(['public', 'assigned-no-public-record']));
    expect(catalog.records.find((r) => r.id === 'CVE-2025-24530')).toMatchObject({ project: 'phpMyAdmin', status: 'public' });
  });
});

describe('a catalog larger than a string can be (the corpus with its details)', () => {
  it('is read a line at a time, to the same catalog as a whole parse', async () => {
    const catalog = await loadDefaultCatalog();
    const withEverything = {
      ...catalog,
      removed: [{ id: 'CVE-2024-0002', modified: '2025-01-01T12:00:00.000Z' }],
      sync: { source: 'releases', delta: '2025-01-24T05:00Z', syncedAt: '2025-01-24T05:10:00.000Z' },
    };
    const bytes = Buffer.from(catalogJson(withEverything));
    // A limit below the catalog's size stands in for V8's 512 MB string limit.
    expect(parseCatalogBytes(bytes, 1024)).toEqual(JSON.parse(bytes.toString('utf8')));
  });

  it('says how such a catalog must be laid out when it is not', () => {
    const oneLine = Buffer.from(JSON.stringify({ lastVerified: '2025-01-01', records: [good, good] }).replace('[', '[\n{"x":'));
    expect(() => parseCatalogBytes(oneLine, 16)).toThrow(/one element per line, as cve-records writes it/);
  });
});
