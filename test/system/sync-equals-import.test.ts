// Issue 25: a sync of a baseline equals an import of the same records, record for record, and the same
// baseline published again the next day changes nothing (it once renamed Kernel to Linux, Couchbase Server
// to MongoDB Server and others: names were mapped onto the catalog's by spelling alone, whatever the vendor).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importRecords, recordsWithDetails } from '../../src/import/importer.js';
import { readInputs } from '../../src/import/inputs.js';
import { releaseFolder } from '../../src/import/sync/release-folder.js';
import { type AppliedStep, syncSteps } from '../../src/import/sync/sync.js';
import { SAMPLE_ZIP } from '../support/paths.js';
import { catalogOf, sqliteMemoryStore } from '../support/store-catalog.js';
import { baselineBytes, baselineName } from '../support/upstream.js';

describe('a baseline synced against the same records imported', () => {
  // The shared sample lives beside the repository (../shared/data), not in it: a clone elsewhere skips this,
  // as it skips the dataset's rebuild from the same file (importer.test.ts).
  it.skipIf(!existsSync(SAMPLE_ZIP))(
    'equals the import record for record, and the same baseline the next day changes nothing',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'upstream-'));
      const sample = readFileSync(SAMPLE_ZIP);
      writeFileSync(join(dir, baselineName('2026-11-20')), baselineBytes(sample));

      const imported = await importRecords(readInputs([SAMPLE_ZIP]), { lastVerified: '2026-11-20', workers: 0 });
      const expected = recordsWithDetails(imported);
      imported.details.close();

      const store = sqliteMemoryStore();
      const sync = async (day: string): Promise<AppliedStep[]> => {
        const applied: AppliedStep[] = [];
        const now = () => new Date(`${day}T00:10:00Z`);
        for await (const step of syncSteps(store, releaseFolder(dir), { workers: 0 }, { now, lastVerified: '2026-11-20' }))
          applied.push(step);
        return applied;
      };
      const [first] = await sync('2026-11-20');
      let catalog = await catalogOf(store);
      expect(first!.report.added).toHaveLength(expected.length);
      expect(catalog.records).toEqual(expected);
      expect(catalog.projects).toEqual(imported.catalog.projects);

      writeFileSync(join(dir, baselineName('2026-11-21')), baselineBytes(sample));
      const [second] = await sync('2026-11-21');
      expect(second!.report).toMatchObject({ added: [], updated: [], published: [], removed: [] });
      catalog = await catalogOf(store);
      expect(catalog.records).toEqual(expected);
    },
    300_000,
  );
});
