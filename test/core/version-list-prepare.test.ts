// A version filter is prepared in steps (the version index built, the page's total counted) before the page
// is planned, so that no list request checks a whole project's records at once; the total counted in steps
// is the one the page would count by itself.
import { describe, expect, it } from 'vitest';
import { createCursorCodec } from '../../src/core/cursor.js';
import { filtersReady, type ListQuery, planPage, prepareFilters } from '../../src/core/list.js';
import { createSnapshot } from '../../src/core/snapshot.js';
import { loadDefaultCatalog } from '../support/app.js';

const cursors = createCursorCodec('test');

describe('prepareFilters', () => {
  it('counts the total of a version filter in steps, as the page would count it at once', async () => {
    const catalog = await loadDefaultCatalog();
    const prepared = createSnapshot(catalog);
    const direct = createSnapshot(catalog);
    const queries: ListQuery[] = [
      { project: 'Linux', version: '6.1.5', include_unknown: true },
      { purl: 'pkg:pypi/apache-airflow@2.7.0' },
      { cpe: 'cpe:2.3:o:microsoft:windows_10_1809:*:*:*:*:*:*:*:*', version: '10.0.17763.100', kev: false },
    ];
    for (const query of queries) {
      expect(filtersReady(prepared, query), JSON.stringify(query)).toBe(false);
      await prepareFilters(prepared, query);
      expect(filtersReady(prepared, query), JSON.stringify(query)).toBe(true);
      const total = planPage(prepared, query, cursors).total;
      expect(total, JSON.stringify(query)).toBe(planPage(direct, query, cursors).total);
      expect(total, JSON.stringify(query)).toBeGreaterThan(0);
    }
    expect(filtersReady(prepared, { project: 'Linux' })).toBe(true);
  });

  it('leaves the error of filters the page refuses to the page', async () => {
    const snapshot = createSnapshot(await loadDefaultCatalog());
    await prepareFilters(snapshot, { version: '1.0' });
    expect(() => planPage(snapshot, { version: '1.0' }, cursors)).toThrow(/needs `project`/);
  });
});
