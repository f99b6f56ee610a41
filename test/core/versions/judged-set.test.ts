// The judged set of version checks (test/fixtures/versions/judged-set.json): cases cut from the shipped
// catalog with their answers derived from the records' own fields (test/support/version-judged-set.ts) or
// checked by hand. Scored as precision per version type; every type must be right on every case, git
// included (its cases are the exact commits it can decide, and the unknowns it must answer).
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { CatalogFile, RecordDetails } from '../../../src/contract/index.js';
import { checkProduct } from '../../../src/core/versions/version-check.js';
import { repositoryPath } from '../../support/paths.js';
import type { JudgedCase } from '../../support/version-judged-set.js';

const judged = JSON.parse(readFileSync(repositoryPath('test/fixtures/versions/judged-set.json'), 'utf8')) as { cases: JudgedCase[] };
const catalog = JSON.parse(gunzipSync(readFileSync(repositoryPath('data/cve-records.json.gz'))).toString('utf8')) as CatalogFile;
const details = new Map<string, RecordDetails | undefined>(catalog.records.map((record) => [record.id, record.details]));

describe('the judged set of version checks', () => {
  it('holds at least 300 cases across the version types, boundaries included', () => {
    expect(judged.cases.length).toBeGreaterThanOrEqual(300);
    const types = new Set(judged.cases.map((c) => c.versionType));
    for (const type of ['semver', 'custom', 'rpm', 'maven', 'python', 'git']) expect(types, type).toContain(type);
    const whys = judged.cases.map((c) => c.why).join('\n');
    for (const boundary of [
      'exactly lessThan',
      'exactly lessThanOrEqual',
      'own version',
      'just below',
      'just above',
      'changes[]',
      'defaultStatus',
    ]) {
      expect(whys, boundary).toContain(boundary);
    }
  });

  const types = [...new Set(judged.cases.map((c) => c.versionType))];
  for (const type of types) {
    it(`answers every ${type} case as the record states it (precision 100%)`, () => {
      const cases = judged.cases.filter((c) => c.versionType === type);
      const wrong = cases.flatMap((c) => {
        const record = details.get(c.id);
        const product = (c.source === 'cna' ? record?.affected : record?.adpAffected)?.[c.product];
        expect(product, `${c.id} ${c.source} ${c.product}`).toBeDefined();
        const got = checkProduct(product!, c.version).status;
        return got === c.expected ? [] : [`${c.id} ${c.name} ${c.version}: ${got}, expected ${c.expected} (${c.why})`];
      });
      expect(wrong, `precision ${((cases.length - wrong.length) / cases.length).toFixed(3)} on ${cases.length}`).toEqual([]);
    });
  }
});
