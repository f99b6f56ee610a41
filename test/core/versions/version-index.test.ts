// The version index keeps the records it parsed within a bound and parses the others again when a check
// reads them: an index that may keep almost nothing answers every check as one that keeps everything.
import { describe, expect, it } from 'vitest';
import { createSnapshot } from '../../../src/core/snapshot.js';
import { projectNameKeys } from '../../../src/core/versions/product-names.js';
import { snapshotVersionSource, VersionIndex } from '../../../src/core/versions/version-index.js';
import { loadDefaultCatalog } from '../../support/app.js';
import { heldBytes } from '../../support/held-memory.js';

describe('the version index', () => {
  it('answers the same checks whether it keeps every parsed record or evicts all but a few', async () => {
    const snapshot = createSnapshot(await loadDefaultCatalog());
    const source = snapshotVersionSource(
      snapshot.table,
      (position) => snapshot.texts.details(position),
      snapshot.aliases,
      (name) => snapshot.filters.project(name),
    );
    const whole = new VersionIndex(source);
    const tiny = new VersionIndex(source, 50);
    const names = projectNameKeys('Linux', snapshot.aliases.get('Linux') ?? []);
    const positions = [...snapshot.filters.project('Linux')];
    let affected = 0;
    for (const version of ['6.1.5', '5.10.100', '4.19']) {
      // Twice over, the second pass reading records the tiny index has evicted since.
      for (const position of [...positions, ...positions]) {
        const verdict = whole.checkProject(position, version, names);
        expect(tiny.checkProject(position, version, names), `${position} ${version}`).toEqual(verdict);
        if (verdict.status === 'affected') affected++;
      }
    }
    expect(affected).toBeGreaterThan(0);
    const key = 'pypi|apache-airflow';
    expect(tiny.packagePositions(key)).toEqual(whole.packagePositions(key));
    for (const position of whole.packagePositions(key))
      expect(tiny.checkPackage(position, key, '2.7.0')).toEqual(whole.checkPackage(position, key, '2.7.0'));
    // 14 s alone; beside the other tests of the folder on a loaded machine, past the default 30.
  }, 120_000);
});

describe("the projects' ranges", () => {
  it('hold little per project once every project was asked about', async () => {
    const snapshot = createSnapshot(await loadDefaultCatalog());
    const index = await snapshot.versions.prepare();
    const projects = snapshot.table.projectNames.map((_, code) => code);
    const before = heldBytes();
    await index.prepare({ projects, names: false });
    const perProject = (heldBytes() - before) / projects.length;
    // Every project asked about holds its ranges (7,294 projects at 340,000 records): packed, 1.5 KB a project
    // here (the shipped data's projects are small, so this is mostly the objects around the numbers); a dozen
    // typed arrays a project held 6.5 KB.
    expect(perProject).toBeLessThan(2_000);
  }, 120_000);
});
