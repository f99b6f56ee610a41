// What the served process keeps over time: once a change has replaced the snapshot it started with, that
// first snapshot (its search index, table and texts) is free to go, as every later one is.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { queryObjects } from 'node:v8';
import { expect, it } from 'vitest';
import { catalogJson } from '../../src/catalog/json/catalog-writer.js';
import { serve } from '../../src/cli/serve.js';
import { StoredTextIndex } from '../../src/core/search/text-index.js';
import { fixtureCatalog, testConfig } from '../support/app.js';
import { collectGarbage } from '../support/held-memory.js';

it('keeps not the first snapshot once a reload replaced it', { timeout: 60_000 }, async () => {
  const file = join(await mkdtemp(join(tmpdir(), 'serve-memory-')), 'catalog.json');
  await writeFile(file, catalogJson(fixtureCatalog));
  const app = await serve(testConfig({ recordsFile: file }));
  try {
    // The first index, built after listening.
    expect((await app.inject('/ask?query=curl')).statusCode).toBe(200);
    const added = {
      id: 'CVE-2025-20000',
      project: 'curl',
      status: 'public' as const,
      url: 'https://www.cve.org/CVERecord?id=CVE-2025-20000',
    };
    await writeFile(file, catalogJson({ ...fixtureCatalog, records: [...fixtureCatalog.records, added] }));
    process.emit('SIGHUP');
    while ((await app.inject(`/api/v1/cve-records/${added.id}`)).statusCode !== 200)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    // The served snapshot's index only: the first one's was kept by the scope serve's SIGHUP handler shares.
    expect(queryObjects(StoredTextIndex, { format: 'count' })).toBe(1);
  } finally {
    await app.close();
  }
});
