// Real CVE JSON 5 records cut from ../shared/data/cvelist-sample.zip (test/fixtures/cve-details), imported
// by the importer and served from a JSON catalog and from a snapshot file: what the details and the list
// filters on them are checked against.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { readCatalogFile } from '../../src/catalog/json/catalog-file.js';
import { writeCatalogFile } from '../../src/catalog/json/catalog-writer.js';
import { openSnapshotFile } from '../../src/catalog/snapshot/snapshot-file.js';
import type { CatalogFile } from '../../src/contract/index.js';
import { importRecords, recordsWithDetails } from '../../src/import/importer.js';
import { readInputs } from '../../src/import/inputs.js';
import { snapshotOfCatalog } from '../../src/sources/catalog-source.js';
import { buildTestApp } from './app.js';
import { fixturePath } from './paths.js';

export type Json = Record<string, any>;

/** Cleared, but with no record in the input: served as assigned-no-public-record. */
export const UNPUBLISHED = 'CVE-2025-0001';

export interface DetailsFixture {
  /** The CVE JSON 5 source records. */
  readonly sources: Json[];
  /** The catalog the importer made of them. */
  readonly catalog: CatalogFile;
  /** The same catalog served from a JSON catalog and from a snapshot file. */
  readonly apps: { readonly json: FastifyInstance; readonly snapshot: FastifyInstance };
  close(): Promise<void>;
}

export async function serveDetailsFixture(): Promise<DetailsFixture> {
  const folder = fixturePath('cve-details');
  const names = (await readdir(folder)).filter((name) => name.endsWith('.json'));
  const sources = await Promise.all(names.map(async (name) => JSON.parse(await readFile(join(folder, name), 'utf8')) as Json));
  const cleared = new Map<string, string | undefined>(sources.map((s) => [s.cveMetadata.cveId, undefined]));
  cleared.set(UNPUBLISHED, 'curl');
  const imported = await importRecords(readInputs([folder]), { lastVerified: '2025-01-24', cleared });
  const catalog = { ...imported.catalog, records: recordsWithDetails(imported) };
  const dir = await mkdtemp(join(tmpdir(), 'details-'));
  // Written as the import command writes them, the details read back from the import's file.
  await writeCatalogFile(join(dir, 'catalog.json.gz'), imported.catalog, { details: imported.details });
  await writeCatalogFile(join(dir, 'catalog.snapshot'), imported.catalog, { details: imported.details });
  imported.details.close();
  const apps = {
    json: await buildTestApp({ snapshot: snapshotOfCatalog('test', await readCatalogFile(join(dir, 'catalog.json.gz'))) }),
    snapshot: await buildTestApp({ snapshot: openSnapshotFile(join(dir, 'catalog.snapshot')) }),
  };
  return {
    sources,
    catalog,
    apps,
    async close() {
      await Promise.all(Object.values(apps).map((app) => app.close()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
