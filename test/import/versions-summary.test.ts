import { describe, expect, it } from 'vitest';
import { versionsSummary } from '../../src/import/versions-summary.js';

describe("an affected product's versions in words", () => {
  it('reads single versions, ranges from "0" and from a version, inclusive ranges and the default status', () => {
    expect(
      versionsSummary(
        [
          { version: '2.4.1', status: 'affected' },
          { version: '0', lessThan: '1.2.3', status: 'affected', versionType: 'semver' },
          { version: '5.10', lessThanOrEqual: '5.15.3', status: 'affected', versionType: 'custom' },
          { version: '0', lessThanOrEqual: '4.0', status: 'unknown', versionType: 'custom' },
        ],
        'unaffected',
      ),
    ).toBe('affected 2.4.1; affected before 1.2.3; affected from 5.10 through 5.15.3; unknown through 4.0; otherwise unaffected');
  });

  it('names the status changes inside a range', () => {
    expect(
      versionsSummary(
        [
          {
            version: '3.0',
            lessThan: '3.*',
            status: 'affected',
            versionType: 'semver',
            changes: [
              { at: '3.0.5', status: 'unaffected' },
              { at: '3.1.0', status: 'affected' },
            ],
          },
        ],
        null,
      ),
    ).toBe('affected from 3.0 before 3.*, unaffected from 3.0.5, affected from 3.1.0');
  });

  it('leaves out entries without a version or a status, and is empty when nothing is said', () => {
    expect(versionsSummary([{ status: 'affected' }, { version: '1.0' }, { version: ' ', status: 'affected' }], null)).toBe('');
    expect(versionsSummary([], 'affected')).toBe('otherwise affected');
  });
});
