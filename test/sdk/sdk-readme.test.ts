// Issues 7 and 23: the SDK README teaches every call, and every example in it runs. The package is packed
// and installed into an empty project as the README's "Install" section says (from this repository), and
// each example runs there as its own Node script, importing only the SDK, against the service serving the
// shipped data. What an example prints is compared with what the service answers to the same question.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogRecord } from '../../src/contract/index.js';
import { buildTestApp, loadDefaultCatalog } from '../support/app.js';
import { repositoryPath } from '../support/paths.js';

const run = promisify(execFile);
const README = readFileSync(repositoryPath('packages/sdk/README.md'), 'utf8');
const VERSION = JSON.parse(readFileSync(repositoryPath('packages/sdk/package.json'), 'utf8')).version as string;

/** The first `js` example under each `##` heading of the README, by heading. */
const examples = new Map(
  README.split(/^## /m)
    .slice(1)
    .flatMap((section) => {
      const example = /```js\n([\s\S]*?)```/.exec(section)?.[1];
      return example === undefined ? [] : [[section.slice(0, section.indexOf('\n')), example] as const];
    }),
);

let app: FastifyInstance;
let baseUrl: string;
let records: CatalogRecord[];
let project: string;

beforeAll(async () => {
  ({ records } = await loadDefaultCatalog());
  app = await buildTestApp({ catalog: await loadDefaultCatalog() });
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  // The README's way from a clone: npm pack, then npm install of the package file in one's own project.
  project = mkdtempSync(join(tmpdir(), 'sdk-readme-'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'your-project', private: true, type: 'module' }));
  await run('npm', ['pack', '--workspace', '@public-cve-records/sdk', '--pack-destination', project], { cwd: repositoryPath('.') });
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', `./public-cve-records-sdk-${VERSION}.tgz`], { cwd: project });
}, 120_000);
afterAll(async () => {
  await app?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

/** Runs the example under `heading` as an ES module in the project that installed the SDK. */
async function runExample(heading: string): Promise<string[]> {
  const example = examples.get(heading);
  expect(example, `the README has an example under "## ${heading}"`).toBeDefined();
  const code = example!.replaceAll('https://cve.example.org', baseUrl);
  const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', code], { cwd: project });
  return stdout.trim().split('\n');
}

const answer = async (url: string) => (await app.inject(url)).json();

describe('SDK README', () => {
  it('shows both ways to install it, and an example of every call, each importing only the SDK', () => {
    expect(README).toContain('npm install @public-cve-records/sdk');
    expect(README).toContain(`npm install ../public-cve-records/public-cve-records-sdk-${VERSION}.tgz`);
    for (const call of [
      'records.get(',
      'records.list(',
      'records.listAll(',
      'records.batchGet(',
      'records.getDetails(',
      'records.batchGetDetails(',
      'records.checkVersions(',
      'listProjects(',
      'records.changes(',
      'records.changesSince(',
      'records.export(',
      'client.search(',
      'client.searchStream(',
      'client.health(',
    ]) {
      expect(
        [...examples.values()].some((example) => example.includes(call)),
        call,
      ).toBe(true);
    }
    for (const example of examples.values()) expect(example).toMatch(/^import .* from '@public-cve-records\/sdk';$/m);
  });

  it('quick start: gets a record and filtered pages', async () => {
    const total = records.filter((r) => r.project === 'OpenSSL' && r.status === 'public').length;
    const exploited = await answer('/api/v1/cve-records?kev=true&severity=critical&published_since=2024-01-01');
    expect(await runExample('Quick start: a record, a filtered list')).toEqual([
      'CVE-2024-6119 OpenSSL public https://www.cve.org/CVERecord?id=CVE-2024-6119',
      `5 of ${total} public OpenSSL records`,
      `${exploited.pagination.total} critical records in CISA KEV published since 2024`,
    ]);
    expect(exploited.pagination.total).toBeGreaterThan(0);
  });

  it('lists every record of the shipped data and batch-gets 120 ids', async () => {
    expect(await runExample('Every record, and any number at once')).toEqual([
      `listed ${records.length} records`,
      'batch: 120 found, missing CVE-1999-0001',
    ]);
  });

  it("reads a record's details, one and several", async () => {
    const one = await answer('/api/v1/cve-records/CVE-2024-6119/details');
    const kev = (await answer('/api/v1/cve-records/CVE-2025-21333/details')).kev;
    expect(await runExample('Details: description, CVSS, CWE, KEV, affected versions')).toEqual([
      one.title,
      ...one.metrics.map((m: any) => `CVSS ${m.version} ${m.baseScore} (${m.source.shortName})`),
      `${one.problemTypes.map((p: any) => p.cweId).join(', ')} not in KEV`,
      `${one.affected[0].product}: ${one.affected[0].versions}`,
      `CVE-2024-6119 ${one.severity} not in KEV`,
      `CVE-2025-21333 high in KEV since ${kev.dateAdded}`,
    ]);
  });

  it('lists the records affecting a version, and checks several at once', async () => {
    const openssl = await answer('/api/v1/cve-records?project=OpenSSL&version=3.0.7');
    const airflow = await answer(`/api/v1/cve-records?limit=100&purl=${encodeURIComponent('pkg:pypi/apache-airflow@2.7.0')}`);
    const fixed = await answer(`/api/v1/cve-records?limit=100&cpe=${encodeURIComponent('cpe:2.3:a:openssl:openssl:3.0.15:*:*:*:*:*:*:*')}`);
    expect(airflow.records.length).toBeGreaterThan(0);
    expect(await runExample('Is my version affected?')).toEqual([
      `OpenSSL 3.0.7: ${openssl.pagination.total} records`,
      airflow.records.map((record: { id: string }) => record.id).join(' '),
      fixed.records.map((record: { id: string }) => record.id).join(' ') || 'none',
    ]);
  });

  it('finds a project by a misspelling, with the exact name the list filter takes', async () => {
    const count = records.filter((r) => r.project === 'OpenSSL' && r.status === 'public').length;
    expect(await runExample('Projects: the names the list filter takes')).toEqual([`OpenSSL ${count} public`]);
  });

  it('reads the change feed from a date, follows it to the end, and polls again from the token', async () => {
    const since = await answer('/api/v1/cve-records/changes?since=2025-01-20T00:00:00Z&limit=1000');
    expect(since.pagination.hasMore).toBe(false);
    const lines = await runExample('Changes: what to fetch again, and polling');
    expect(lines.slice(0, 2)).toEqual(since.changes.slice(0, 2).map((c: any) => `${c.change} ${c.id} ${c.modified}`));
    expect(lines[2]).toMatch(
      new RegExp(`^${since.changes.length - 2} more changes; the next poll starts from a token of \\d+ characters$`),
    );
    expect(lines[3]).toBe('a poll right away: 0 changes, more: false');
  });

  it('reads the whole export, and leaves it after the first line', async () => {
    const first = (await answer('/api/v1/cve-records?limit=1')).records[0].id;
    const lines = await runExample('The export: the whole catalog in one request');
    const published2024 = Number(/^(\d+) records published in 2024$/.exec(lines[0]!)?.[1]);
    expect(published2024).toBeGreaterThan(1000);
    expect(lines[1]).toBe(`first line: ${first}`);
  });

  it('searches as one answer and as a stream', async () => {
    const json = await answer('/ask?query=phpmyadmin+xss+since+2024&limit=3');
    const lines = await runExample('Search, as one answer or as a stream');
    expect(lines.slice(0, 1 + json.results.length)).toEqual([
      json.understood.join('; '),
      ...json.results.map((r: any) => `${r.name} ${r.score}`),
    ]);
    // "openssl since 2024": OpenSSL records of 2024 or later, each with a score from 0 to 1.
    expect(lines.slice(1 + json.results.length)).toEqual([
      ...[0, 1, 2].map((index) =>
        expect.stringMatching(new RegExp(`^result ${index}: CVE-202[4-9]-\\d+ \\(OpenSSL\\) \\((0(\\.\\d+)?|1)\\)$`)),
      ),
      'search complete: 3 results',
    ]);
  });

  it('errors: a missing record is a CveRecordsError with status, code, details and requestId', async () => {
    expect(await runExample('Errors')).toEqual(['404 record_not_found CVE-1999-0001 true']);
  });

  it('timeouts and cancelling: a call with its own timeout, a stream left after its first result', async () => {
    expect(await runExample('Timeouts and cancelling')).toEqual([
      'ok true',
      expect.stringMatching(/^first result: CVE-\d{4}-\d+ \(Linux\)$/),
    ]);
  });
});
