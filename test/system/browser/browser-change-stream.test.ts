// Issue 25: the change stream as a browser follows it, with Chromium's own EventSource: the stream opens from
// the records page, says it is ready, and a change landing afterwards arrives as a message. The route gives the
// connection's request parser back once the stream is open (http/rest/request-parser.ts); a client nobody on
// this project wrote shows that the connection still does what a browser expects of it.
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCursorCodec } from '../../../src/core/cursor.js';
import { createSnapshot } from '../../../src/core/snapshot.js';
import { SnapshotStore } from '../../../src/core/snapshot-store.js';
import { buildServer } from '../../../src/http/server.js';
import { fixtureCatalog, testConfig } from '../../support/app.js';
import { launchChromium, watchProblems } from '../../support/browser.js';

let app: FastifyInstance;
let store: SnapshotStore;
let baseUrl: string;
let browser: Browser;

beforeAll(async () => {
  store = new SnapshotStore(createSnapshot(fixtureCatalog));
  const config = testConfig();
  app = await buildServer({ config, store, cursors: createCursorCodec(config.cursorSecret) });
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the change stream in Chromium', () => {
  it("opens with the browser's EventSource, says it is ready, and delivers a change that lands later", async () => {
    const page = await browser.newPage();
    const problems = watchProblems(page);
    await page.goto(`${baseUrl}/`);
    // In the page's own terms (the browser's EventSource), as the page's script would write it.
    await page.evaluate(`
      window.seen = [];
      const source = new EventSource('/api/v1/cve-records/changes/stream');
      source.addEventListener('ready', () => window.seen.push('ready'));
      source.onmessage = (event) => window.seen.push(JSON.parse(event.data).id);
    `);
    await page.waitForFunction("window.seen.includes('ready')");

    const added = {
      id: 'CVE-2025-20000',
      project: 'curl',
      status: 'public' as const,
      url: 'https://www.cve.org/CVERecord?id=CVE-2025-20000',
      modified: new Date().toISOString(),
    };
    store.replace(createSnapshot({ ...fixtureCatalog, records: [...fixtureCatalog.records, added] }));
    await page.waitForFunction(`window.seen.includes('${added.id}')`);
    expect(await page.evaluate('window.seen')).toEqual(['ready', added.id]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
