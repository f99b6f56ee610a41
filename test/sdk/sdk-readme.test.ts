// Issue 7: the SDK README's examples, each run as its own Node script that imports only the SDK, against
// the service serving the default dataset. The second one is the "done when": a script using
// only the SDK lists every record, batch-gets 120 ids and streams a search.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loadDefaultCatalog } from '../support/app.js';
import { repositoryUrl } from '../support/paths.js';

const README = repositoryUrl('packages/sdk/README.md');
const REPOSITORY_ROOT = repositoryUrl('.');
const examples = [...readFileSync(README, 'utf8').matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]!);

let app: FastifyInstance;
let baseUrl: string;
beforeAll(async () => {
  app = await buildTestApp({ catalog: await loadDefaultCatalog() });
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => app.close());

/** Runs one example as an ES module from the repository root, where `@public-cve-records/sdk` resolves. */
async function run(example: string): Promise<string[]> {
  const code = example.replaceAll('https://cve.example.org', baseUrl);
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', code], { cwd: REPOSITORY_ROOT });
  return stdout.trim().split('\n');
}

describe('SDK README examples', () => {
  it('has the four examples this test knows', () => {
    expect(examples).toHaveLength(4);
    for (const example of examples) expect(example).toMatch(/^import .* from '@public-cve-records\/sdk';$/m);
  });

  it('quick start: gets a record and a filtered page', async () => {
    const total = (await loadDefaultCatalog()).records.filter((r) => r.project === 'OpenSSL' && r.status === 'public').length;
    expect(await run(examples[0]!)).toEqual([
      'CVE-2024-6119 OpenSSL public https://www.cve.org/CVERecord?id=CVE-2024-6119',
      `5 of ${total} public OpenSSL records`,
    ]);
  });

  it('lists every record of the default dataset, batch-gets 120 ids and streams a search', async () => {
    const { records } = await loadDefaultCatalog();
    const lines = await run(examples[1]!);
    expect(lines[0]).toBe(`listed ${records.length} records`);
    expect(lines[1]).toBe('batch: 120 found, missing CVE-1999-0001');
    // "openssl since 2024": OpenSSL records of 2024 or later, each with a score from 0 to 1.
    expect(lines.slice(2, 5)).toEqual(
      [0, 1, 2].map((index) =>
        expect.stringMatching(new RegExp(`^result ${index}: CVE-202[4-9]-\\d+ \\(OpenSSL\\) \\((0(\\.\\d+)?|1)\\)$`)),
      ),
    );
    expect(lines[5]).toBe('search complete: 3 results');
  });

  it('errors: a missing record is a CveRecordsError with status, code, details and requestId', async () => {
    expect(await run(examples[2]!)).toEqual(['404 record_not_found CVE-1999-0001 true']);
  });

  it('timeouts and cancelling: a call with its own timeout, a stream left after its first result', async () => {
    const lines = await run(examples[3]!);
    expect(lines).toEqual(['ok true', expect.stringMatching(/^first result: CVE-\d{4}-\d+ \(Linux\)$/)]);
  });
});
