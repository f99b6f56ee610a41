// Issue 23, the SDK keeps its promises: its public types, as the built declarations give them, are compared
// with the saved API report (packages/sdk/api-report/sdk.api.md, written by API Extractor). A change shows
// as a diff here and has to be decided: a compatible one is accepted by rewriting the report
// (`UPDATE_GOLDENS=1 npx vitest run test/sdk/sdk-api-report.test.ts`); a breaking one also needs a new major
// version of the SDK and a migration note in its CHANGELOG.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor';
import { afterAll, describe, expect, it } from 'vitest';
import { repositoryPath } from '../support/paths.js';

const SDK = repositoryPath('packages/sdk');
const CONFIG = join(SDK, 'api-extractor.json');
const SAVED = join(SDK, 'api-report', 'sdk.api.md');
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const temporaryFolder = (): string => {
  const folder = mkdtempSync(join(tmpdir(), 'sdk-api-report-'));
  folders.push(folder);
  return folder;
};

/** The report API Extractor writes for the declarations in `dist` (the SDK's own by default). */
function reportOf(dist = join(SDK, 'dist'), { update = false } = {}): string {
  const configObject = ExtractorConfig.loadFile(CONFIG);
  const reportTempFolder = temporaryFolder();
  configObject.mainEntryPointFilePath = join(dist, 'index.d.ts');
  configObject.apiReport = { ...configObject.apiReport!, enabled: true, reportTempFolder };
  const config = ExtractorConfig.prepare({ configObject, configObjectFullPath: CONFIG, packageJsonFullPath: join(SDK, 'package.json') });
  const problems: string[] = [];
  const result = Extractor.invoke(config, {
    localBuild: update,
    messageCallback: (message) => {
      if (message.logLevel === ExtractorLogLevel.Error) problems.push(message.formatMessageWithLocation(SDK));
      message.handled = true;
    },
  });
  expect(problems, 'API Extractor reported errors').toEqual([]);
  expect(result.errorCount).toBe(0);
  return readFileSync(join(reportTempFolder, 'sdk.api.md'), 'utf8');
}

describe("the SDK's public types", () => {
  it('match the saved API report', () => {
    const update = process.env.UPDATE_GOLDENS === '1';
    const report = reportOf(undefined, { update });
    expect(existsSync(SAVED), `${SAVED} exists (UPDATE_GOLDENS=1 writes it)`).toBe(true);
    expect(report, 'the public types changed: see the header of this test for what to do').toBe(readFileSync(SAVED, 'utf8'));
  }, 60_000);

  it('differ from it when a public method returns another shape, as searchStream did from 1.0.0 to 2.0.0', () => {
    const dist = temporaryFolder();
    cpSync(join(SDK, 'dist'), dist, { recursive: true, filter: (source) => !source.includes('api-report') });
    const client = join(dist, 'client.d.ts');
    const declarations = readFileSync(client, 'utf8');
    expect(declarations).toContain('AsyncGenerator<SearchMessage>');
    writeFileSync(client, declarations.replace('AsyncGenerator<SearchMessage>', 'AsyncGenerator<{ event: string; data: unknown }>'));
    const report = reportOf(dist);
    expect(report).not.toBe(readFileSync(SAVED, 'utf8'));
    expect(report).toContain('searchStream(query: string | SearchParams, options?: RequestOptions): AsyncGenerator<{');
  }, 60_000);
});
