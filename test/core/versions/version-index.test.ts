// The version index keeps the records it parsed within a bound and parses the others again when a check
// reads them: an index that may keep almost nothing answers every check as one that keeps everything.
import { describe, expect, it } from 'vitest';
import { createSnapshot } from '../../../src/core/snapshot.js';
import { projectNameKeys } from '../../../src/core/versions/product-names.js';
import { snapshotVersionSource, VersionIndex } from '../../../src/core/versions/version-index.js';
import { loadDefaultCatalog } from '../../support/app.js';

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
  });
});
