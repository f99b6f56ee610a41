import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  AffectedProduct,
  AffectedVersion,
  CatalogFile,
  CatalogRecord,
  CatalogRemoval,
  Severity,
  VersionStatus,
} from '../../src/contract/index.js';
import type { ListQuery } from '../../src/core/list.js';
import { createSnapshot } from '../../src/core/snapshot.js';
import { applyChange, ConflictingChangeError, type SnapshotChange } from '../../src/core/snapshot-delta.js';
import { detailed } from '../support/detailed-records.js';
import { expectSameAnswers, mergeCatalog } from '../support/snapshot-views.js';

const PROJECTS = ['curl', 'OpenSSL', 'Linux', 'nginx', 'libxml2'];
const WORDS = ['buffer', 'overflow', 'remote', 'code', 'execution', 'heap', 'crafted', 'request', 'denial', 'service', 'curl', 'kernel'];
const SEVERITIES: Severity[] = ['low', 'medium', 'high', 'critical'];
const QUERIES = [
  'buffer overflow',
  'remote code execution',
  'curl',
  'openssl heap',
  'kernel denial',
  'overflw',
  'exec',
  'nginx request 2024',
];
const LISTS: ListQuery[] = [
  {},
  { project: 'curl' },
  { project: 'nginx' },
  { status: 'public' },
  { severity: 'high' },
  { kev: true },
  { cwe: 'CWE-79' },
  { published_since: '2024-03-01' },
  { project: 'Linux', version: '6.1.5' },
  { project: 'Linux', version: '5.10', include_unknown: true },
  { project: 'OpenSSL', version: '3.0.7' },
];

const AFFECTED_ONLY: ReadonlySet<VersionStatus> = new Set(['affected']);

/** Affected blocks a record may carry: the kernel's way (affected by default, fixed series carved out) and OpenSSL's. */
const AFFECTED: readonly AffectedProduct[][] = [
  [product('Linux', 'affected', [range('0', '5.10', 'unaffected'), range('6.1.63', '6.1.*', 'unaffected', true)])],
  [product('Linux', 'unaffected', [range('5.4', '6.1.10', 'affected'), range('6.2', '*', 'affected', true)])],
  [product('OpenSSL', 'unaffected', [range('3.0.0', '3.0.15', 'affected'), range('3.1.0', '3.1.7', 'affected')])],
  [product('Other', null, [range('0', '3.0.8', 'affected')])],
];

function range(version: string, upper: string, status: VersionStatus, orEqual = false): AffectedVersion {
  return { version, status, versionType: 'semver', lessThan: orEqual ? null : upper, lessThanOrEqual: orEqual ? upper : null, changes: [] };
}

function product(name: string, defaultStatus: VersionStatus | null, versionList: AffectedVersion[]): AffectedProduct {
  return {
    vendor: name,
    product: name,
    packageName: null,
    packageURL: null,
    versions: '',
    collectionURL: null,
    cpes: [],
    defaultStatus,
    versionList,
  };
}

const idArbitrary = fc
  .tuple(fc.integer({ min: 2022, max: 2025 }), fc.integer({ min: 1000, max: 1024 }))
  .map(([year, n]) => `CVE-${year}-${n}`);
const time = (day: number, hour = 0) => new Date(Date.UTC(2025, 0, 1 + day, hour)).toISOString();

const recordArbitrary = (id: string): fc.Arbitrary<CatalogRecord> =>
  fc
    .record({
      project: fc.constantFrom(...PROJECTS),
      words: fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }),
      published: fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined }),
      modified: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
      changed: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined, freq: 6 }),
      details: fc.option(
        fc.record({
          severities: fc.subarray(SEVERITIES),
          kev: fc.boolean(),
          cwes: fc.subarray(['CWE-79', 'CWE-787', 'CWE-20']),
          affected: fc.option(fc.constantFrom(...AFFECTED), { nil: undefined }),
        }),
        { nil: undefined },
      ),
      otherUrl: fc.boolean(),
    })
    .map(({ project, words, published, modified, changed, details, otherUrl }) => {
      const day = published === undefined ? undefined : new Date(Date.UTC(2024, 0, 1 + published)).toISOString().slice(0, 10);
      const base = details ? detailed(id, project, { ...details, published: day }) : undefined;
      const status = day === undefined ? 'assigned-no-public-record' : 'public';
      const record: CatalogRecord = {
        id,
        project,
        status,
        url: status === 'public' ? (otherUrl ? `https://example.org/${id}` : `https://www.cve.org/CVERecord?id=${id}`) : null,
        ...(words.length > 0 ? { summary: words.join(' ') } : {}),
        ...(day === undefined ? {} : { published: day }),
        ...(modified === undefined ? {} : { modified: time(modified) }),
        ...(changed === undefined ? {} : { changed: time(changed, 12) }),
        ...(base?.details ? { details: details?.affected ? { ...base.details, affected: details.affected } : base.details } : {}),
      };
      return record;
    });

const recordsArbitrary = (maxLength: number): fc.Arbitrary<CatalogRecord[]> =>
  fc
    .uniqueArray(idArbitrary, { maxLength })
    .chain((ids) => (ids.length === 0 ? fc.constant([]) : fc.tuple(...ids.map(recordArbitrary)).map((records) => [...records])));

const changeArbitrary = (sequence: number): fc.Arbitrary<SnapshotChange> =>
  fc
    .record({
      upserted: recordsArbitrary(6),
      removed: fc.uniqueArray(idArbitrary, { maxLength: 4 }),
      removedAt: fc.integer({ min: 0, max: 60 }),
      lastVerified: fc.constantFrom('2025-03-01', '2025-03-02'),
      aliases: fc.option(fc.tuple(fc.constantFrom(...PROJECTS), fc.subarray(['Kernel', 'curl library', 'libcurl'])), { nil: undefined }),
    })
    .map(({ upserted, removed, removedAt, lastVerified, aliases }) => {
      const upsertedIds = new Set(upserted.map((record) => record.id));
      const removals: CatalogRemoval[] = removed.filter((id) => !upsertedIds.has(id)).map((id) => ({ id, modified: time(removedAt, 6) }));
      return {
        sequence,
        lastVerified,
        upserted,
        removed: removals,
        ...(aliases ? { projects: [{ name: aliases[0], aliases: aliases[1] }] } : {}),
      };
    });

describe('a change applied to a snapshot answers as a snapshot built from the merged catalog', () => {
  it('for random catalogs and random sequences of changes: lists, get-one, details, change feed, projects, search, version checks', {
    timeout: 300_000,
  }, () => {
    let affectedSeen = 0;
    fc.assert(
      fc.property(
        recordsArbitrary(14),
        fc
          .array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 5 })
          .chain((seqs) => fc.tuple(...seqs.map((_, i) => changeArbitrary(i + 1)))),
        (records, changes) => {
          let catalog: CatalogFile = { lastVerified: '2025-03-01', projects: [{ name: 'Linux', aliases: ['Kernel'] }], records };
          let snapshot = createSnapshot(catalog);
          for (const change of changes) {
            catalog = mergeCatalog(catalog, change);
            snapshot = applyChange(snapshot, change);
            expect(snapshot.sequence).toBe(change.sequence);
            expectSameAnswers(snapshot, createSnapshot(catalog), catalog, QUERIES, LISTS);
            const linux = snapshot.filters.projectCode('Linux');
            if (linux !== undefined)
              affectedSeen += snapshot.versions.get().findInProject(linux, '6.1.5', AFFECTED_ONLY)?.found.length ?? 0;
          }
        },
      ),
      { numRuns: 30 },
    );
    // The version lists compared were not all empty.
    expect(affectedSeen).toBeGreaterThan(0);
  });

  it('leaves the snapshot it was applied to as it was', () => {
    const records = [
      {
        id: 'CVE-2024-1000',
        project: 'curl',
        status: 'public',
        url: 'https://www.cve.org/CVERecord?id=CVE-2024-1000',
        summary: 'heap overflow',
      },
      {
        id: 'CVE-2023-1000',
        project: 'nginx',
        status: 'public',
        url: 'https://www.cve.org/CVERecord?id=CVE-2023-1000',
        summary: 'request smuggling',
      },
    ] satisfies CatalogRecord[];
    const catalog: CatalogFile = { lastVerified: '2025-03-01', records };
    const before = createSnapshot(catalog);
    const change: SnapshotChange = {
      sequence: 7,
      lastVerified: '2025-03-02',
      upserted: [{ ...records[0]!, summary: 'use after free' }],
      removed: [{ id: 'CVE-2023-1000', modified: '2025-03-02T00:00:00.000Z' }],
    };
    const after = applyChange(before, change);
    expectSameAnswers(before, createSnapshot(catalog), catalog, QUERIES, LISTS);
    expect(after.get('CVE-2023-1000')).toBeUndefined();
    expect(after.get('CVE-2024-1000')?.summary).toBe('use after free');
    expect(after.version).not.toBe(before.version);
  });

  it('refuses a change that both upserts and removes one id, or upserts it twice', () => {
    const snapshot = createSnapshot({ lastVerified: '2025-03-01', records: [] });
    const record: CatalogRecord = { id: 'CVE-2024-1000', project: 'curl', status: 'assigned-no-public-record', url: null };
    expect(() =>
      applyChange(snapshot, {
        sequence: 1,
        lastVerified: '2025-03-01',
        upserted: [record],
        removed: [{ id: record.id, modified: time(1) }],
      }),
    ).toThrow(ConflictingChangeError);
    expect(() => applyChange(snapshot, { sequence: 1, lastVerified: '2025-03-01', upserted: [record, record], removed: [] })).toThrow(
      /duplicate record id/,
    );
  });
});
