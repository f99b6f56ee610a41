import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AffectedVersion, VersionStatus } from '../../../src/contract/index.js';
import { checkRecord } from '../../../src/core/versions/record-check.js';
import { checkProduct, matchEntry } from '../../../src/core/versions/version-check.js';
import { versionOrder } from '../../../src/core/versions/version-order.js';

/** An entry as a record states it; fields it leaves out are null. */
function entry(fields: Partial<AffectedVersion> & Pick<AffectedVersion, 'version'>): AffectedVersion {
  return { status: 'affected', versionType: null, lessThan: null, lessThanOrEqual: null, changes: [], ...fields };
}

function status(versionList: AffectedVersion[], version: string, defaultStatus: VersionStatus | null = null): VersionStatus {
  return checkProduct({ versionList, defaultStatus }, version).status;
}

describe('the CVE JSON 5 rules', () => {
  const openssl = [
    entry({ version: '3.3.0', lessThan: '3.3.2', versionType: 'semver' }),
    entry({ version: '3.0.0', lessThan: '3.0.15', versionType: 'semver' }),
  ];

  it('a range holds its `version` and what lies below `lessThan`, not `lessThan` itself', () => {
    expect(status(openssl, '3.0.0', 'unaffected')).toBe('affected');
    expect(status(openssl, '3.0.7', 'unaffected')).toBe('affected');
    expect(status(openssl, '3.0.14', 'unaffected')).toBe('affected');
    expect(status(openssl, '3.0.15', 'unaffected')).toBe('unaffected');
    expect(status(openssl, '2.9.9', 'unaffected')).toBe('unaffected');
    expect(status(openssl, '3.3.1', 'unaffected')).toBe('affected');
  });

  it('`lessThanOrEqual` holds its bound', () => {
    const through = [entry({ version: '6.2.0', lessThanOrEqual: '6.2.16', versionType: 'semver' })];
    expect(status(through, '6.2.16', 'unaffected')).toBe('affected');
    expect(status(through, '6.2.17', 'unaffected')).toBe('unaffected');
  });

  it('a version no entry matches takes defaultStatus, and unknown when the record gives none', () => {
    expect(status(openssl, '1.1.1', 'unaffected')).toBe('unaffected');
    expect(status(openssl, '1.1.1', 'affected')).toBe('affected');
    expect(status(openssl, '1.1.1', null)).toBe('unknown');
  });

  it('`0` is no lower bound', () => {
    expect(status([entry({ version: '0', lessThan: '2.5', versionType: 'custom' })], '0.0.1', 'unaffected')).toBe('affected');
  });

  it('`*` in an upper bound: a whole series, or no limit', () => {
    const series = [entry({ version: '1.0', lessThan: '2.*', versionType: 'semver' })];
    expect(status(series, '2.99.1', 'unaffected')).toBe('affected');
    expect(status(series, '3.0.0', 'unaffected')).toBe('unaffected');
    const kernel = [entry({ version: '6.1.63', lessThanOrEqual: '6.1.*', versionType: 'custom', status: 'unaffected' })];
    expect(status(kernel, '6.1.70', 'affected')).toBe('unaffected');
    expect(status(kernel, '6.1.62', 'affected')).toBe('affected');
    expect(status(kernel, '6.10.1', 'affected')).toBe('affected');
    expect(status([entry({ version: '2.424', lessThan: '*', versionType: 'maven', status: 'unaffected' })], '9.1', 'affected')).toBe(
      'unaffected',
    );
  });

  it('changes[] are sorted before they apply, the last at or below the version decides', () => {
    const changes = [
      entry({
        version: '2.0.0',
        lessThan: '2.*',
        versionType: 'semver',
        changes: [
          { at: '2.6.3', status: 'unaffected' },
          { at: '2.5.2', status: 'unaffected' },
          { at: '2.6.0', status: 'affected' },
        ],
      }),
    ];
    expect(status(changes, '2.5.1')).toBe('affected');
    expect(status(changes, '2.5.2')).toBe('unaffected');
    expect(status(changes, '2.6.0')).toBe('affected');
    expect(status(changes, '2.6.3')).toBe('unaffected');
    expect(status(changes, '3.0.0')).toBe('unknown');
  });

  it('the first matching entry decides', () => {
    const list = [
      entry({ version: '1.0', versionType: 'custom', status: 'unaffected' }),
      entry({ version: '0', lessThan: '2', versionType: 'custom' }),
    ];
    expect(status(list, '1.0.0')).toBe('unaffected');
    expect(status(list, '1.5')).toBe('affected');
  });

  it('a single version matches that version, as a token when it is no number', () => {
    expect(status([entry({ version: '16.7.1a' })], '16.7.1a', 'unaffected')).toBe('affected');
    expect(status([entry({ version: '16.7.1a' })], '16.7.1b', 'unaffected')).toBe('unaffected');
    expect(status([entry({ version: '4.19' })], '4.19.0', 'unaffected')).toBe('affected');
  });

  it('what cannot be read is unknown, never a guess', () => {
    expect(status([entry({ version: 'unspecified', lessThan: 'n/a', versionType: 'custom' })], '1.0', 'unaffected')).toBe('unknown');
    expect(status([entry({ version: '< 5.2.2' })], '5.0', 'unaffected')).toBe('unknown');
    expect(status([entry({ version: '5.x' })], '5.1', 'unaffected')).toBe('unknown');
    expect(status([entry({ version: '1.0', lessThan: '2.0', versionType: 'custom' })], '1.5-beta', 'unaffected')).toBe('unknown');
    expect(status([entry({ version: '520.1', lessThanOrEqual: '520.1TCU4', versionType: 'semver' })], '520.1.0', 'unaffected')).toBe(
      'unknown',
    );
  });

  it('a match wins over an entry that cannot be read; a miss does not', () => {
    const list = [
      entry({ version: 'unspecified', lessThan: 'n/a', versionType: 'custom' }),
      entry({ version: '1.0', lessThan: '2.0', versionType: 'custom' }),
    ];
    expect(status(list, '1.5', 'unaffected')).toBe('affected');
    expect(status(list, '2.5', 'unaffected')).toBe('unknown');
  });
});

describe('git: an exact commit only', () => {
  const range = entry({ version: 'a3134fb09e0b', lessThan: 'cc1a1dcb411f', versionType: 'git' });
  it('the first commit of a range has its status, lessThan is outside it, any other commit is unknown', () => {
    expect(matchEntry(range, 'a3134fb09e0bdeadbeef')).toBe('affected');
    expect(matchEntry(range, 'cc1a1dcb411f')).toBe('no-match');
    expect(matchEntry(range, '0123456789ab')).toBe('undecidable');
    expect(matchEntry(range, '6.1.5')).toBe('undecidable');
  });
  it('a release number is decided by the record’s other product entry, not by the git one', () => {
    const details = {
      affected: [
        {
          vendor: 'Linux',
          product: 'Linux',
          packageName: null,
          packageURL: null,
          versions: '',
          defaultStatus: 'unaffected' as const,
          versionList: [range],
        },
        {
          vendor: 'Linux',
          product: 'Linux',
          packageName: null,
          packageURL: null,
          versions: '',
          defaultStatus: 'affected' as const,
          versionList: [
            entry({ version: '4.19' }),
            entry({ version: '0', lessThan: '4.19', versionType: 'custom', status: 'unaffected' }),
            entry({ version: '6.1.63', lessThanOrEqual: '6.1.*', versionType: 'custom', status: 'unaffected' }),
            entry({ version: '6.7', lessThanOrEqual: '*', versionType: 'original_commit_for_fix', status: 'unaffected' }),
          ],
        },
      ],
    };
    expect(checkRecord(details, '6.1.5')).toMatchObject({ status: 'affected', product: 1, entry: null });
    expect(checkRecord(details, '6.1.63')).toMatchObject({ status: 'unaffected', product: 1, entry: 2 });
    expect(checkRecord(details, '4.14.1')).toMatchObject({ status: 'unaffected', entry: 1 });
    expect(checkRecord(details, '6.8')).toMatchObject({ status: 'unaffected', entry: 3 });
    expect(checkRecord(details, 'a3134fb09e0b').status).toBe('affected');
    expect(checkRecord(details, 'ffffffffffff').status).toBe('unknown');
  });
});

describe('orders of each version type', () => {
  const ordered = (type: string, versions: string[]) => {
    const order = versionOrder(type);
    if (order === 'git') throw new Error('no order');
    const keys = versions.map((v) => {
      const key = order.parse(v);
      expect(key, `${type} ${v}`).toBeDefined();
      return key;
    });
    for (let i = 1; i < keys.length; i++)
      expect(order.compare(keys[i - 1], keys[i]), `${versions[i - 1]} < ${versions[i]}`).toBeLessThan(0);
  };
  it('semver, with prereleases before their release', () =>
    ordered('semver', ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-beta', '1.0.0-rc.1', '1.0.0', '1.2', '1.10.0']));
  it('rpm, as rpmvercmp', () =>
    ordered('rpm', [
      '1.0~rc1-1',
      '1.0-1',
      '1.0-1.el8',
      '1.0-2',
      '1.0^git1-1',
      '1.0a-1',
      '1.1-1',
      '0:4.18.0-513.el8',
      '0:4.18.0-553.el8_10',
      '1:0.1-1',
    ]));
  it('maven, as ComparableVersion', () =>
    ordered('maven', [
      '1-alpha-1',
      '1-alpha2',
      '1-beta',
      '1-milestone-1',
      '1-rc',
      '1-snapshot',
      '1',
      '1-sp',
      '1-abc',
      '1.0.1',
      '1.1',
      '2.414.2',
      '2.424',
    ]));
  it('maven equalities', () => {
    const order = versionOrder('maven') as Exclude<ReturnType<typeof versionOrder>, 'git'>;
    for (const [a, b] of <[string, string][]>[
      ['1', '1.0.0'],
      ['1.0-ga', '1'],
      ['1-cr1', '1-rc1'],
      ['1-final', '1.0'],
    ])
      expect(order.compare(order.parse(a), order.parse(b)), `${a} = ${b}`).toBe(0);
  });
  it('python, as PEP 440', () => ordered('python', ['1.0.dev1', '1.0a1', '1.0b2', '1.0rc1', '1.0', '1.0.post1', '1.1']));
  it('custom and unknown types: dotted numbers only', () => {
    ordered('custom', ['0.9', '1', '1.0.1', '1.2', '1.10', '10.0.19041.1234']);
    ordered('original_commit_for_fix', ['6.6', '6.7']);
    const order = versionOrder('custom') as Exclude<ReturnType<typeof versionOrder>, 'git'>;
    expect(order.parse('7.0(3)F3(5)')).toBeUndefined();
    expect(order.parse('99999999999999999999999.1')).toBeDefined();
  });
});

describe('ranges against a plain reference ordering (property)', () => {
  const triple = fc.tuple(fc.nat(30), fc.nat(30), fc.nat(30));
  const text = ([a, b, c]: [number, number, number]) => `${a}.${b}.${c}`;
  const reference = (x: number[], y: number[]) => x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
  for (const versionType of ['semver', 'custom', 'rpm', 'maven', 'python']) {
    it(`${versionType}: a ≤ v < b exactly when the reference says so`, () => {
      fc.assert(
        fc.property(triple, triple, triple, fc.boolean(), (low, high, v, inclusive) => {
          const range = entry({
            version: text(low),
            versionType,
            ...(inclusive ? { lessThanOrEqual: text(high) } : { lessThan: text(high) }),
          });
          const upper = reference(v, high);
          const inside = reference(low, v) <= 0 && (inclusive ? upper <= 0 : upper < 0);
          expect(status([range], text(v), 'unaffected')).toBe(inside ? 'affected' : 'unaffected');
        }),
        { numRuns: 300 },
      );
    });
  }
});
