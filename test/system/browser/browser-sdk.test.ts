// Issue 7: the SDK is plain ES modules over fetch, so a browser runs it as built. Here Chromium loads
// packages/sdk/dist into the service's own page (whose policy allows only this origin) and uses it.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { serviceAndBrowser, watchProblems } from '../../support/browser.js';
import { repositoryUrl } from '../../support/paths.js';

type Sdk = typeof import('@public-cve-records/sdk');

const SDK_DIST = repositoryUrl('packages/sdk/dist/');

const env = serviceAndBrowser();

describe('the SDK in a browser', () => {
  it('lists, gets, batch-gets, searches, streams and maps errors from a page', async () => {
    const page = await env.browser.newPage();
    const problems = watchProblems(page);
    // The built SDK appears under /sdk/ of the service's origin, as a site would serve its bundle, with
    // a module of the site's own that puts it where the test can reach it.
    await page.route(`${env.baseUrl}/sdk/**`, (route) => {
      const file = new URL(route.request().url()).pathname.slice('/sdk/'.length);
      return file === 'expose.js'
        ? route.fulfill({ body: "import * as sdk from './index.js'; globalThis.sdk = sdk;", contentType: 'text/javascript' })
        : route.fulfill({ path: fileURLToPath(new URL(file, SDK_DIST)), contentType: 'text/javascript' });
    });
    await page.goto(`${env.baseUrl}/`);
    await page.addScriptTag({ url: '/sdk/expose.js', type: 'module' });
    await page.waitForFunction(() => 'sdk' in globalThis);

    const seen = await page.evaluate(async (origin) => {
      const { CveRecordsClient, CveRecordsError } = (globalThis as unknown as { sdk: Sdk }).sdk;
      const client = new CveRecordsClient({ baseUrl: origin });
      const listed: string[] = [];
      for await (const record of client.records.listAll({ project: 'OpenSSL', limit: 7 })) listed.push(record.id);
      const batch = await client.records.batchGet([...listed, ...listed, 'CVE-1999-0001']);
      const events: string[] = [];
      for await (const { message_type } of client.searchStream('openssl', { signal: AbortSignal.timeout(5_000) }))
        events.push(message_type);
      const error = await client.records.get('CVE-1999-0001').catch((e: unknown) => e);
      return {
        health: (await client.health()).status,
        listed: listed.length,
        batch: { records: batch.records.map((r) => r.id).join() === listed.join(), missing: batch.missing },
        search: (await client.search('CVE-2024-6119')).results[0]?.name,
        events: [events[0], events.at(-1), events.length],
        error: error instanceof CveRecordsError ? [error.status, error.code, typeof error.requestId] : String(error),
      };
    }, env.baseUrl);

    const openssl = (await (await fetch(`${env.baseUrl}/api/v1/cve-records?project=OpenSSL&limit=1`)).json()) as {
      pagination: { total: number };
    };
    expect(seen).toEqual({
      health: 'ok',
      listed: openssl.pagination.total,
      batch: { records: true, missing: ['CVE-1999-0001'] },
      search: 'CVE-2024-6119 (OpenSSL)',
      events: ['begin-nlweb-response', 'complete', 13],
      error: [404, 'record_not_found', 'string'],
    });
    // Chromium logs the 404 answer, and the stream as aborted: searchStream stops reading at `complete`
    // without waiting for the connection to end. Nothing else may appear.
    expect(problems.filter((p) => !p.includes('status of 404') && !/\/ask\?query=openssl&stream=true net::ERR_ABORTED$/.test(p))).toEqual(
      [],
    );
    await page.close();
  });
});
