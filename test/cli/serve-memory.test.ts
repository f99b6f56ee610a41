// What the served process keeps over time: once a change has replaced the snapshot it started with, that
// first snapshot (its search index, table and texts) is free to go, as every later one is.
import { queryObjects } from 'node:v8';
import { expect, it } from 'vitest';
import { StoredTextIndex } from '../../src/core/search/text-index.js';
import { collectGarbage } from '../support/held-memory.js';
import { addRecordAndReload, serveFixtureFile } from '../support/served-file.js';

it('keeps not the first snapshot once a reload replaced it', { timeout: 60_000 }, async () => {
  const { app, file } = await serveFixtureFile();
  try {
    // The first index, built after listening.
    expect((await app.inject('/ask?query=curl')).statusCode).toBe(200);
    await addRecordAndReload(app, file);
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    // The served snapshot's index only: the first one's was kept by the scope serve's SIGHUP handler shares.
    expect(queryObjects(StoredTextIndex, { format: 'count' })).toBe(1);
  } finally {
    await app.close();
  }
});
