// Issue 5, the importer: CVE JSON 5 from directory trees, files, zips and nested zips; selection by
// cleared ids, assigner and date; every bad input reported with its file and counted, never a crash.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCatalogProblems } from '../../src/catalog/catalog-validation.js';
import { DEFAULT_RECORDS_FILE } from '../../src/cli/serve-options.js';
import { detailsJson } from '../../src/core/details-json.js';
import { detailFilters } from '../../src/core/record-table.js';
import { importRecords, recordsWithDetails } from '../../src/import/importer.js';
import { readInputs } from '../../src/import/inputs.js';
import { buildTestApp } from '../support/app.js';
import { runCli } from '../support/cli.js';
import { fixturePath, repositoryPath, SAMPLE_ZIP } from '../support/paths.js';
import { zipBytes } from '../support/zip-writer.js';

const fixtures = fixturePath;
const RECORDS_ZIP = fixtures('import/records.zip');

const run = (paths: string[], options: Partial<Parameters<typeof importRecords>[1]> = {}) =>
  importRecords(readInputs(paths), { lastVerified: '2025-01-24', ...options });

describe('inputs', () => {
  it('reads a directory tree in the cvelistV5 layout', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tree-'));
    await mkdir(join(root, 'cves', '2023', '5xxx'), { recursive: true });
    await cp(fixtures('cve-json5/v51-published.CVE-2023-5365.json'), join(root, 'cves', '2023', '5xxx', 'CVE-2023-5365.json'));
    await cp(fixtures('cve-json5/v50-rejected.CVE-2024-3514.json'), join(root, 'cves', '2023', '5xxx', 'CVE-2024-3514.json'));
    await writeFile(join(root, 'cves', 'notes.txt'), 'ignored');
    const result = await run([root]);
    expect(result.read).toBe(2);
    expect(result.catalog.records.map((r) => r.id)).toEqual(['CVE-2023-5365']);
    expect(result.skipped.rejected).toBe(1);
  });

  it('reads single files and several inputs together, rejecting a second copy of an id as a duplicate', async () => {
    const file = fixtures('cve-json5/v51-published.CVE-2023-5365.json');
    const result = await run([file, fixtures('cve-json5/en-us.CVE-2019-1183.json'), file]);
    expect(result.imported).toBe(2);
    expect(result.problems).toEqual([
      { category: 'duplicate', source: file, detail: 'CVE-2023-5365 was already imported from another file' },
    ]);
  });

  it('reads a zip, reporting each bad entry with its file and counting every skip by reason', async () => {
    const result = await run([RECORDS_ZIP]);
    // The last entry's path escapes with '..': hostile structure, so the archive is unreadable from there
    // (an import keeps the entries before it; a sync would refuse the whole archive).
    expect(result.read).toBe(15);
    // Every published record is imported: the two whose CNA names nothing are named by the cascade.
    expect(result.imported).toBe(11);
    expect(result.skipped).toMatchObject({ rejected: 2, 'no-project-name': 0, duplicate: 1, 'invalid-json': 1, 'unreadable-input': 1 });
    const bySource = Object.fromEntries(result.problems.map((p) => [p.source.split('!/')[1] ?? p.source, `${p.category}: ${p.detail}`]));
    expect(bySource[RECORDS_ZIP]).toBe(
      "unreadable-input: archive is unreadable: entry path escapes with '..': ../outside/CVE-2024-8888.json",
    );
    expect(bySource['cvelistV5-main/cves/2024/9xxx/CVE-2024-9999.json']).toMatch(/^invalid-json: /);
    expect(bySource['cvelistV5-main/cves/delta/CVE-2023-5365.json']).toMatch(/^duplicate: CVE-2023-5365/);
    // Nothing silently dropped: every entry read is imported or counted (an unreadable input is no entry).
    const skippedEntries = Object.entries(result.skipped).reduce(
      (sum, [category, n]) => sum + (category === 'unreadable-input' ? 0 : n),
      0,
    );
    expect(result.imported + skippedEntries).toBe(result.read);
  });

  it('reads a zip nested in a zip, as the release zips hold cves.zip', async () => {
    const result = await run([fixtures('import/release.zip')]);
    expect(result.read).toBe(5);
    expect(result.imported + result.skipped['no-project-name'] + result.skipped.rejected).toBe(5);
    expect(result.imported).toBeGreaterThan(0);
  });

  it('reports a truncated archive and a missing path as unreadable inputs, and goes on with the others', async () => {
    const result = await run([fixtures('import/truncated.zip'), '/no/such/dir', fixtures('cve-json5/en-us.CVE-2019-1183.json')]);
    expect(result.skipped['unreadable-input']).toBe(2);
    expect(result.problems.map((p) => p.source)).toEqual([fixtures('import/truncated.zip'), '/no/such/dir']);
    expect(result.catalog.records.map((r) => r.id)).toEqual(['CVE-2019-1183']);
  });
});

describe('selection', () => {
  it('imports only cleared ids; a cleared id without a published record is assigned with a null url', async () => {
    const cleared = new Map<string, string | undefined>([
      ['CVE-2023-5365', undefined],
      ['CVE-2025-0042', 'Example Project'],
      ['CVE-2025-0043', undefined],
    ]);
    const result = await run([RECORDS_ZIP], { cleared });
    expect(result.catalog.records).toEqual([
      { id: 'CVE-2025-0042', project: 'Example Project', status: 'assigned-no-public-record', url: null },
      expect.objectContaining({ id: 'CVE-2023-5365', status: 'public', url: 'https://www.cve.org/CVERecord?id=CVE-2023-5365' }),
    ]);
    expect(result.skipped['not-cleared']).toBeGreaterThan(0);
    expect(result.problems.find((p) => p.source === 'CVE-2025-0043')?.category).toBe('no-project-name');
  });

  it('names an unnamed record through the override map', async () => {
    const overrides = new Map([
      ['CVE-2024-41482', 'Named By Operator'],
      ['CVE-2024-28277', 'School Task Manager'],
    ]);
    const result = await run([RECORDS_ZIP], { overrides });
    expect(result.catalog.records.find((r) => r.id === 'CVE-2024-41482')?.project).toBe('Named By Operator');
    expect(result.skipped['no-project-name']).toBe(0);
  });

  it('filters by assigner and by publication date', async () => {
    const microsoft = await run([RECORDS_ZIP], { assigner: 'MICROSOFT' });
    expect(microsoft.catalog.records.map((r) => r.id).sort()).toEqual(['CVE-2019-1183', 'CVE-2022-35798']);
    const recent = await run([RECORDS_ZIP], { since: '2024-01-01' });
    expect(recent.catalog.records.every((r) => (r.published ?? '') >= '2024-01-01')).toBe(true);
    expect(recent.skipped['before-since']).toBeGreaterThan(0);
  });
});

describe('details kept in a file', () => {
  it('reads each record its own details back, in listing order, with their filter fields', async () => {
    const all = await run([RECORDS_ZIP]);
    const withCleared = await run([RECORDS_ZIP], {
      cleared: new Map([
        ['CVE-2025-0001', 'curl'],
        ['CVE-2023-5365', undefined],
      ]),
    });
    for (const result of [all, withCleared]) {
      const records = recordsWithDetails(result);
      records.forEach((record, index) => {
        expect(result.details.text(index)).toBe(record.details === undefined ? undefined : detailsJson(record.details));
        expect(result.details.filters(index)).toEqual(detailFilters(record.details));
        // Its own: the record's modified is its details' last date.
        if (record.details) expect(record.modified).toBe(record.details.dateUpdated ?? record.details.datePublished);
      });
    }
    // The assigned record has none; the published one has its own.
    const [assigned, published] = ['CVE-2025-0001', 'CVE-2023-5365'].map((id) => withCleared.catalog.records.findIndex((r) => r.id === id));
    expect(withCleared.details.text(assigned!)).toBeUndefined();
    expect(JSON.parse(withCleared.details.text(published!)!)).toMatchObject({ state: 'PUBLISHED' });
    for (const result of [all, withCleared]) result.details.close();
  });
});

describe('cve-records import and validate', () => {
  it('writes a catalog, prints a summary by reason, lists bad input on stderr; --strict fails on it', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'import-')), 'catalog.json');
    const plain = await runCli(['import', RECORDS_ZIP, '--out', out, '--last-verified', '2025-02-01']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/read: +15 entries/);
    expect(plain.stdout).toMatch(/imported: +11 published records/);
    expect(plain.stdout).toMatch(/named by: +cna-product 9, repository 1, description 1/);
    expect(plain.stdout).toMatch(/invalid-json +1 \(bad input/);
    expect(plain.stderr).toContain("records.zip: unreadable-input: archive is unreadable: entry path escapes with '..': ../outside/");
    expect(JSON.parse(await readFile(out, 'utf8')).lastVerified).toBe('2025-02-01');
    expect((await runCli(['validate', out])).stdout).toMatch(/valid, 11 records/);
    expect((await runCli(['import', RECORDS_ZIP, '--out', out, '--strict'])).code).toBe(1);
  });

  it('refuses bad options and bad id lists with exit code 2', async () => {
    const list = join(await mkdtemp(join(tmpdir(), 'ids-')), 'ids.txt');
    await writeFile(list, 'CVE-2024-1\nnot-an-id\n');
    const bad = await runCli(['import', RECORDS_ZIP, '--ids', list]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${list}:2: "not-an-id" is not a CVE id`);
    expect((await runCli(['import'])).code).toBe(2);
    expect((await runCli(['import', RECORDS_ZIP, '--since', 'yesterday'])).code).toBe(2);
  });

  it('validate prints every problem with its location', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'validate-')), 'bad.json');
    await writeFile(
      file,
      JSON.stringify({
        lastVerified: '2025-01-01',
        records: [
          { id: 'CVE-2024-1234', project: 'x', status: 'gone', url: null },
          { id: 'CVE-2024-1234', project: 'y', status: 'public', url: 'not a url' },
        ],
      }),
    );
    const { code, stdout } = await runCli(['validate', file]);
    expect(code).toBe(1);
    expect(stdout).toContain(`${file}: /records/0/status (CVE-2024-1234)`);
    expect(stdout).toContain(`${file}: /records/1/url (CVE-2024-1234)`);
    expect(stdout).toMatch(/\/records\/1\b.*duplicate/);
  });

  it.skipIf(!existsSync(SAMPLE_ZIP))(
    'rebuilds the embedded dataset byte for byte from the shared sample and the cleared ids',
    async () => {
      const out = join(await mkdtemp(join(tmpdir(), 'dataset-')), 'cve-records.json.gz');
      const { code, stdout } = await runCli([
        'import',
        SAMPLE_ZIP,
        '--ids',
        repositoryPath('data/cleared-ids.txt'),
        '--last-verified',
        '2025-01-24',
        '--out',
        out,
        '--strict',
      ]);
      expect(code).toBe(0);
      expect(stdout).toContain('public 17288, assigned-no-public-record 40');
      // Compared as a verdict, not with toEqual: a diff of two 10 MB buffers would exhaust the heap.
      expect((await readFile(out)).equals(await readFile(DEFAULT_RECORDS_FILE))).toBe(true);
    },
    240_000,
  );
});

// Issue 11: what an adversarial campaign found in the importer. Each test is named after its finding.
describe('hostile inputs (issue 11)', () => {
  const record = (id: string) =>
    readFile(fixtures('cve-json5/v51-published.CVE-2023-5365.json'), 'utf8').then((text) => text.replaceAll('CVE-2023-5365', id));
  const scratch = () => mkdtemp(join(tmpdir(), 'hostile-'));

  it('import --strict with an unreadable input does not overwrite --out (item 3)', async () => {
    const dir = await scratch();
    const out = join(dir, 'catalog.json');
    expect((await runCli(['import', RECORDS_ZIP, '--out', out])).code).toBe(0);
    const before = await readFile(out);
    const strict = await runCli(['import', RECORDS_ZIP, join(dir, 'missing.zip'), '--out', out, '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('written:   nothing (--strict, and some input was bad)');
    expect(await readFile(out)).toEqual(before);
    // Without --strict, an import that could read nothing at all writes nothing either.
    const nothing = await runCli(['import', join(dir, 'missing.zip'), '--out', out]);
    expect(nothing.code).toBe(1);
    expect(await readFile(out)).toEqual(before);
    expect((await readdir(dir)).sort()).toEqual(['catalog.json']); // no temporary file left behind
  });

  it('a nested zip is not copied to temporary disk beyond a bound of the archive size (item 4)', async () => {
    const dir = await scratch();
    // 2.2 GB declared for the inner zip of a tiny archive: refused before a byte is written to disk.
    const inner = zipBytes([{ name: 'cves/CVE-2023-5365.json', data: await record('CVE-2023-5365') }]);
    const bomb = join(dir, 'nested-bomb.zip');
    await writeFile(bomb, zipBytes([{ name: 'cves.zip', data: inner, declaredSize: 2_200_000_000 }]));
    const result = await run([bomb]);
    expect(result.imported).toBe(0);
    expect(result.problems[0]).toMatchObject({ category: 'unreadable-input', source: bomb });
    expect(result.problems[0]!.detail).toMatch(/entry declares 2200000000 bytes, more than its \d+ deflated bytes can hold: cves\.zip$/);
    // A real nested zip of the same shape still imports.
    const real = join(dir, 'release.zip');
    await writeFile(real, zipBytes([{ name: 'cves.zip', data: inner }]));
    expect((await run([real])).catalog.records.map((r) => r.id)).toEqual(['CVE-2023-5365']);
  });

  it('entries sharing one compressed body refuse the archive, not each inflated in full (item 5)', async () => {
    const dir = await scratch();
    const text = await record('CVE-2023-5365');
    const shared = join(dir, 'shared-body.zip');
    await writeFile(
      shared,
      zipBytes([
        { name: 'a/CVE-2023-5365.json', data: text },
        ...Array.from({ length: 50 }, (_, i) => ({ name: `b/copy-${i}.json`, data: '', sharesBodyOf: 'a/CVE-2023-5365.json' })),
      ]),
    );
    const result = await run([shared]);
    expect(result.read).toBe(1);
    expect(result.problems).toEqual([
      {
        category: 'unreadable-input',
        source: shared,
        detail: 'archive is unreadable: entries overlap in the file: a/CVE-2023-5365.json and b/copy-0.json',
      },
    ]);
    // Entries that each declare a great deal (no more than their deflated bytes could hold): the whole
    // archive's bound stops them before most are inflated.
    const declared = join(dir, 'declared.zip');
    const noise = randomBytes(60_000);
    await writeFile(
      declared,
      zipBytes(Array.from({ length: 20 }, (_, i) => ({ name: `CVE-2024-${1000 + i}.json`, data: noise, declaredSize: 50_000_000 }))),
    );
    const bounded = await run([declared]);
    expect(bounded.problems.at(-1)).toMatchObject({ category: 'unreadable-input' });
    expect(bounded.problems.at(-1)!.detail).toMatch(/would inflate to more than 268435456 bytes/);
  });

  it('an entry whose data does not match its directory is reported, and the entries around it are read', async () => {
    const dir = await scratch();
    const good = await record('CVE-2023-5365');
    const damaged = join(dir, 'damaged.zip');
    const bytes = zipBytes([
      { name: 'cves/lies-small.json', data: await record('CVE-2024-0001'), declaredSize: 100 },
      { name: 'cves/wrong-crc.json', data: await record('CVE-2024-0002'), crc: 12345 },
      { name: 'cves/CVE-2023-5365.json', data: good },
      { name: 'cves/lies-large.json', data: '{"a":1}', declaredSize: 5000 },
      { name: 'cves/garbled.json', data: await record('CVE-2024-0003') },
    ]);
    // Garble the deflated body of the last entry (its name is followed by its data).
    const garbled = bytes.indexOf('cves/garbled.json') + 'cves/garbled.json'.length;
    bytes.fill(0xff, garbled, garbled + 8);
    await writeFile(damaged, bytes);
    const result = await run([damaged]);
    expect(result.catalog.records.map((r) => r.id)).toEqual(['CVE-2023-5365']);
    // Damage of the archive, not of one record: a sync would refuse the archive (sync-refusals.test.ts).
    expect(result.problems.map((p) => p.category)).toEqual(Array(4).fill('unreadable-input'));
    const bySource = Object.fromEntries(result.problems.map((p) => [p.source.slice(damaged.length + 2), p.detail]));
    expect(bySource).toEqual({
      'cves/lies-small.json': 'entry inflates to more than its declared 100 bytes',
      'cves/wrong-crc.json': 'CRC-32 mismatch: entry data is corrupt',
      'cves/lies-large.json': 'entry is 7 bytes, not the 5000 its directory declares',
      'cves/garbled.json': expect.stringMatching(/^entry data is corrupt: /),
    });
  });

  it('directory inputs: invalid UTF-8 is reported, link loops end, a FIFO is not read, links out of the tree are not followed (item 12)', async () => {
    const root = await scratch();
    await mkdir(join(root, 'cves', '2023'), { recursive: true });
    await writeFile(join(root, 'cves', '2023', 'CVE-2023-5365.json'), await record('CVE-2023-5365'));
    await writeFile(join(root, 'cves', '2023', 'latin1.json'), Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d]));
    await symlink(join(root, 'cves'), join(root, 'cves', '2023', 'loop'));
    await symlink(join(root, 'cves'), join(root, 'cves', 'loop2'));
    await symlink('/etc/passwd', join(root, 'cves', 'passwd.json'));
    execFileSync('mkfifo', [join(root, 'cves', 'fifo.json')]);
    const result = await run([root]);
    expect(result.catalog.records.map((r) => r.id)).toEqual(['CVE-2023-5365']);
    const bySource = Object.fromEntries(result.problems.map((p) => [p.source.slice(root.length + 1), p.detail]));
    expect(bySource).toEqual({
      'cves/2023/latin1.json': 'not valid UTF-8',
      'cves/fifo.json': 'not a regular file: not read',
      'cves/passwd.json': 'symbolic link leads outside the tree or nowhere: not followed',
    });
    expect(JSON.stringify(result)).not.toContain('root:');
  }, 20_000);

  it('a file that is not JSON is reported without quoting its text', async () => {
    const dir = await scratch();
    await writeFile(join(dir, 'secret.json'), 'root:x:0:0:root:/root:/bin/bash');
    const result = await run([dir]);
    expect(result.problems).toEqual([{ category: 'invalid-json', source: join(dir, 'secret.json'), detail: 'not valid JSON' }]);
  });
});

// Issue 24, item 2: a lone surrogate (half of a UTF-16 pair, which JSON can write as an escape) in a
// record's text made a 500 of every answer that put the name in a URL.
describe('lone surrogates in CVE JSON (issue 24, item 2)', () => {
  it('are replaced by U+FFFD and counted as a warning, so the catalog is valid and every surface answers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'surrogates-'));
    const json = JSON.parse(await readFile(fixtures('cve-json5/v51-published.CVE-2023-5365.json'), 'utf8'));
    json.containers.cna.affected[0].product = 'Widget \ud800 Pro';
    json.containers.cna.descriptions[0].value = `A flaw \udfff in a pair 😀 kept as it is.`;
    const file = join(dir, 'CVE-2023-5365.json');
    // JSON.stringify writes each lone surrogate as its \u escape, as a hostile record would.
    await writeFile(file, JSON.stringify(json));
    expect(await readFile(file, 'utf8')).toContain('\\ud800');

    const result = await run([file]);
    const [record] = recordsWithDetails(result);
    expect(record!.project).toBe('Widget \ufffd Pro');
    expect(record!.details!.description).toBe('A flaw \ufffd in a pair 😀 kept as it is.');
    expect(result.warnings).toEqual([
      {
        kind: 'ill-formed-text',
        source: file,
        detail: 'CVE-2023-5365: 2 texts held a lone surrogate (half of a UTF-16 pair), each replaced by U+FFFD',
      },
    ]);
    expect(findCatalogProblems(result.catalog, result.details)).toEqual([]);

    const app = await buildTestApp({ catalog: { ...result.catalog, records: recordsWithDetails(result) } });
    try {
      const mcp = await app.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_service_info', arguments: {} } },
      });
      expect(mcp.statusCode).toBe(200);
      const answer = JSON.parse(/^data: (.*)$/m.exec(mcp.body)![1]!);
      expect(answer.result.isError, mcp.body).toBeFalsy();
      for (const url of [
        '/api/v1/sandbox',
        '/records/CVE-2023-5365',
        '/',
        `/?project=${encodeURIComponent(record!.project)}`,
        '/feeds/records.atom',
      ]) {
        expect((await app.inject({ url })).statusCode, url).toBe(200);
      }
    } finally {
      await app.close();
    }
  });
});
