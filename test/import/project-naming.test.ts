// Issue 13: every published record gets a project through the naming cascade, and one project is one
// name however CNAs spell it. The fixture (test/fixtures/naming/) is cut from the sample: records whose
// CNA names nothing (n/a products), whose only product is in an ADP container, whose only clue is a
// repository or the description, and spelling variants of Linux and curl.
import { readdir, readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { canonicalProjects, type NameOccurrence, parseAliasTable } from '../../src/import/canonical-projects.js';
import { mapCveRecord } from '../../src/import/cve-json5.js';
import { importRecords } from '../../src/import/importer.js';
import { readInputs } from '../../src/import/inputs.js';
import { PLACEHOLDER_PROJECT, subjectOf, usableName } from '../../src/import/project-naming.js';
import { fixturePath, repositoryPath } from '../support/paths.js';

const FIXTURE = fixturePath('naming');
const aliasTable = async () => parseAliasTable(await readFile(repositoryPath('data/project-aliases.tsv'), 'utf8'));

/** What each fixture record is named by the cascade (before canonical names) and then served as. */
const EXPECTED: Record<string, { step: string; derived: string; project: string }> = {
  'CVE-2023-52908': { step: 'cna-product', derived: 'Linux', project: 'Linux' },
  'CVE-2021-3600': { step: 'cna-product', derived: 'linux', project: 'Linux' },
  'CVE-2022-2196': { step: 'cna-product', derived: 'Linux Kernel', project: 'Linux' },
  'CVE-2022-38096': { step: 'cna-product', derived: 'kernel', project: 'Linux' },
  'CVE-2019-19065': { step: 'repository', derived: 'linux', project: 'Linux' },
  'CVE-2006-4663': { step: 'description', derived: 'Linux kernel', project: 'Linux' },
  'CVE-2020-8286': { step: 'cna-product', derived: 'https://github.com/curl/curl', project: 'curl' },
  'CVE-2016-9952': { step: 'adp-product', derived: 'curl', project: 'curl' },
  'CVE-2020-19909': { step: 'repository', derived: 'curl', project: 'curl' },
  'CVE-2019-19391': { step: 'repository', derived: 'LuaJIT', project: 'LuaJIT' },
  'CVE-2023-50733': { step: 'cna-vendor', derived: 'Lexmark', project: 'Lexmark' },
  'CVE-2023-39804': { step: 'description', derived: 'GNU tar', project: 'GNU tar' },
  'CVE-2016-0650': { step: 'description', derived: 'Oracle MySQL', project: 'MySQL Server' },
  'CVE-2023-37769': { step: 'placeholder', derived: PLACEHOLDER_PROJECT, project: PLACEHOLDER_PROJECT },
};

describe('the naming cascade on hard cases from the sample', () => {
  it('names each record by the first step that yields a name', async () => {
    const files = (await readdir(FIXTURE)).filter((name) => !name.startsWith('rejected.'));
    expect(files).toHaveLength(Object.keys(EXPECTED).length);
    for (const file of files) {
      const result = mapCveRecord(JSON.parse(await readFile(`${FIXTURE}/${file}`, 'utf8')));
      if (!result.ok) throw new Error(`${file} was skipped: ${result.reason}`);
      const expected = EXPECTED[result.record.id];
      expect({ file, step: result.naming.step, derived: result.naming.name }).toEqual({
        file,
        step: expected?.step,
        derived: expected?.derived,
      });
    }
  });

  it('imports every published record under its canonical name, counts the steps, and keeps REJECTED out', async () => {
    const result = await importRecords(readInputs([FIXTURE]), { lastVerified: '2025-01-24', aliases: await aliasTable() });
    expect(Object.fromEntries(result.catalog.records.map((record) => [record.id, record.project]))).toEqual(
      Object.fromEntries(Object.entries(EXPECTED).map(([id, { project }]) => [id, project])),
    );
    expect(result.namedBy).toEqual({
      override: 0,
      'cna-product': 5,
      'cna-vendor': 1,
      'adp-product': 1,
      repository: 3,
      description: 3,
      placeholder: 1,
    });
    expect(result.skipped.rejected).toBe(1);
    expect(result.skipped['no-project-name']).toBe(0);
    // The spellings stay with their project, for search; a project with one spelling lists no aliases.
    expect(result.catalog.projects).toEqual([
      { name: 'Linux', aliases: ['Linux Kernel', 'Linux kernel', 'kernel', 'linux'] },
      { name: 'MySQL Server', aliases: ['Oracle MySQL'] },
      { name: 'curl', aliases: ['https://github.com/curl/curl'] },
    ]);
  });

  it('treats n/a-like values as naming nothing, and keeps real names that merely look odd', () => {
    for (const value of ['n/a', 'N/A', 'n.a.', 'unknown', 'Unspecified', '-', '*', 'n/a n/a', 'N/A, N/A', '  ', 42, null]) {
      expect(usableName(value), String(value)).toBeUndefined();
    }
    expect(usableName('  OpenSSL  ')).toBe('OpenSSL');
    expect(usableName('None Available')).toBe('None Available');
    expect(usableName('all-in-one-seo-pack')).toBe('all-in-one-seo-pack');
  });

  it('reads the subject of a description, and no phrase that is not a name', () => {
    expect(subjectOf('In LuaJIT through 2.0.5, use of the x86 code generator could lead to a crash.')).toBe('LuaJIT');
    expect(subjectOf('A memory leak in the Linux kernel before 5.3.9 allows attackers to cause a denial of service.')).toBe('Linux kernel');
    expect(subjectOf('In GNU tar before 1.35, mishandled extension attributes can lead to a crash.')).toBe('GNU tar');
    expect(subjectOf('Atmail 5.62 allows XSS via the mail/parse.php Search Terms field.')).toBe('Atmail');
    expect(subjectOf('A buffer overflow allows attackers to execute code.')).toBeUndefined();
    expect(subjectOf('Improper input validation in version 1.2 allows a crash.')).toBeUndefined();
  });
});

describe('canonical project names', () => {
  const occurrence = (name: string, vendor?: string, step: NameOccurrence['step'] = 'cna-product'): NameOccurrence => ({
    name,
    vendor,
    step,
  });

  it('joins case, suffix, version and vendor-prefix spellings under the most used one, whatever the order', () => {
    const spellings = [
      occurrence('OpenSSL', 'OpenSSL'),
      occurrence('OpenSSL', 'OpenSSL'),
      occurrence('openssl', 'openssl'),
      occurrence('OpenSSL 3.0.7', 'OpenSSL'),
      occurrence('Oracle VM VirtualBox', 'Oracle Corporation'),
      occurrence('VM VirtualBox', 'Oracle'),
      occurrence('VM VirtualBox', 'Oracle'),
      occurrence('VM VirtualBox', 'Oracle'),
      occurrence('Oracle VM VirtualBox', undefined, 'description'),
    ];
    const names = canonicalProjects(spellings);
    expect(spellings.map((each) => names.nameOf(each))).toEqual([
      'OpenSSL',
      'OpenSSL',
      'OpenSSL',
      'OpenSSL',
      'VM VirtualBox',
      'VM VirtualBox',
      'VM VirtualBox',
      'VM VirtualBox',
      'VM VirtualBox',
    ]);
    const reversed = canonicalProjects([...spellings].reverse());
    expect(reversed.projects).toEqual(names.projects);
    expect(names.projects).toEqual([
      { name: 'OpenSSL', aliases: ['OpenSSL 3.0.7', 'openssl'] },
      { name: 'VM VirtualBox', aliases: ['Oracle VM VirtualBox'] },
    ]);
  });

  it('keeps a generic product of two vendors apart, and joins a vendorless spelling to the most used vendor', () => {
    const debian = occurrence('Linux', 'Debian');
    const desktopA = occurrence('Desktop', 'Acme');
    const desktopB = occurrence('Desktop ', 'Globex');
    const names = canonicalProjects([debian, desktopA, desktopA, desktopB, occurrence('desktop', undefined, 'description')]);
    expect(names.nameOf(occurrence('desktop', undefined, 'description'))).toBe('Desktop');
    // Two groups whose names are the same project name are one project, as the exact filter sees it.
    expect(names.projects.map((project) => project.name)).toEqual(['Desktop', 'Linux']);
  });

  it('applies a vendor-bound curated spelling to that vendor only', async () => {
    const aliases = await aliasTable();
    const linuxKernel = occurrence('kernel', 'Linux');
    const openBsdKernel = occurrence('kernel', 'OpenBSD');
    const names = canonicalProjects([linuxKernel, openBsdKernel], aliases);
    expect(names.nameOf(linuxKernel)).toBe('Linux');
    expect(names.nameOf(openBsdKernel)).toBe('kernel');
  });

  it('names in the curated table are projects of the embedded dataset', async () => {
    const catalog = JSON.parse(gunzipSync(await readFile(repositoryPath('data/cve-records.json.gz'))).toString('utf8')) as {
      records: { project: string }[];
    };
    const served = new Set(catalog.records.map((record) => record.project));
    const curated = new Set((await aliasTable()).values());
    expect(curated.size).toBeGreaterThan(10);
    for (const name of curated) expect(served.has(name), name).toBe(true);
  });
});
