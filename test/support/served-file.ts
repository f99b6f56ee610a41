// A server on a catalog file of the fixture records, in this process, and a change to it: a record added
// to the file, reloaded (SIGHUP) and served. What the serve-level memory tests start from.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { catalogJson } from '../../src/catalog/json/catalog-writer.js';
import { serve } from '../../src/cli/serve.js';
import { fixtureCatalog, testConfig } from './app.js';

/** `serve` on a new catalog file of the fixture records. */
export async function serveFixtureFile(): Promise<{ app: FastifyInstance; file: string }> {
  const file = join(await mkdtemp(join(tmpdir(), 'served-file-')), 'catalog.json');
  await writeFile(file, catalogJson(fixtureCatalog));
  return { app: await serve(testConfig({ recordsFile: file })), file };
}

/** Adds a record to the file, reloads it and returns once the record is served. */
export async function addRecordAndReload(app: FastifyInstance, file: string): Promise<void> {
  const added = {
    id: 'CVE-2025-20000',
    project: 'curl',
    status: 'public' as const,
    url: 'https://www.cve.org/CVERecord?id=CVE-2025-20000',
  };
  await writeFile(file, catalogJson({ ...fixtureCatalog, records: [...fixtureCatalog.records, added] }));
  process.emit('SIGHUP');
  while ((await app.inject(`/api/v1/cve-records/${added.id}`)).statusCode !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
}
