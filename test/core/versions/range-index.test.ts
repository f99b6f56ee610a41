// The range index answers as the record-by-record check does: for every version it ranks (and every commit id), the records it
// finds (with their statuses) and those it leaves to the check together give exactly the records whose
// check says a status asked for. Shown on random records (entries of every ordering, `*` series, tokens,
// git commits and tags, defaults, CNA and ADP) and on every project of the shipped data at versions next
// to its own bounds.
import { describe, expect, it } from 'vitest';
import type { AffectedProduct, AffectedVersion, VersionStatus } from '../../../src/contract/index.js';
import { createSnapshot } from '../../../src/core/snapshot.js';
import { projectNameKeys } from '../../../src/core/versions/product-names.js';
import { isCommitVersion, isRankableVersion } from '../../../src/core/versions/range-eval.js';
import { type RangeAnswer, type RangeIndex, RangeIndexBuilder } from '../../../src/core/versions/range-index.js';
import { type CheckedDetails, checkRecord } from '../../../src/core/versions/record-check.js';
import { recordVersions } from '../../../src/core/versions/version-index.js';
import { loadDefaultCatalog } from '../../support/app.js';

const ASKED: readonly ReadonlySet<VersionStatus>[] = [new Set(['affected']), new Set(['affected', 'unknown'])];

/** The asked statuses by position, as the index gives them (its `checked` records checked with `check`). */
function indexed(
  answer: RangeAnswer | undefined,
  asked: ReadonlySet<VersionStatus>,
  check: (position: number) => VersionStatus,
): Map<number, VersionStatus> | undefined {
  if (answer === undefined) return undefined;
  const found = new Map<number, VersionStatus>();
  for (const [i, position] of answer.found.entries()) found.set(position, answer.statuses[i]!);
  expect([...answer.found]).toEqual([...answer.found].sort((a, b) => a - b));
  expect([...answer.positions]).toEqual([...answer.found, ...answer.checked].sort((a, b) => a - b));
  for (const position of answer.checked) {
    expect(found.has(position)).toBe(false);
    const status = check(position);
    if (asked.has(status)) found.set(position, status);
  }
  return found;
}

function exhaustive(positions: Iterable<number>, asked: ReadonlySet<VersionStatus>, check: (position: number) => VersionStatus) {
  const found = new Map<number, VersionStatus>();
  for (const position of positions) {
    const status = check(position);
    if (asked.has(status)) found.set(position, status);
  }
  return found;
}

function build(builder: RangeIndexBuilder, block?: number): RangeIndex {
  const steps = builder.done(block);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/** A small deterministic generator (mulberry32), so a failure names a seed that repeats it. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BOUNDS = [
  '0',
  '1',
  '1.0',
  '1.2',
  '1.2.3',
  '1.2.10',
  '1.10',
  '2',
  '2.0.0-rc1',
  '2.0.0',
  'v2.1',
  '3.0.15',
  '01.2',
  '1.2.x',
  'n/a',
  '6.12-rc1',
];
const TYPES = ['semver', 'custom', null, 'rpm', 'maven', 'python', 'git', 'original_commit_for_fix'];
const STATUSES: readonly VersionStatus[] = ['affected', 'unaffected', 'unknown'];
const COMMITS = ['1da177e4c3f4', 'ccf74f2390d6', 'v6.1', '1234567'];

function randomEntry(next: () => number): AffectedVersion {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const versionType = pick(TYPES);
  const git = versionType === 'git';
  const bound = () => (git ? pick(COMMITS) : pick(BOUNDS));
  const kind = next();
  const upper = kind < 0.3 ? null : kind < 0.5 ? `${pick(['', '1.', '1.2.', '2.', 'v1.2.', '01.'])}*` : bound();
  const strict = next() < 0.5;
  return {
    version: bound(),
    status: pick(STATUSES),
    versionType,
    lessThan: upper !== null && strict ? upper : null,
    lessThanOrEqual: upper !== null && !strict ? upper : null,
    changes: next() < 0.05 ? [{ at: bound(), status: pick(STATUSES) }] : [],
  };
}

function randomRecord(next: () => number): CheckedDetails {
  const product = (): AffectedProduct => ({
    vendor: 'v',
    product: 'p',
    packageName: null,
    packageURL: null,
    versions: '',
    collectionURL: null,
    cpes: [],
    defaultStatus: next() < 0.25 ? null : STATUSES[Math.floor(next() * 3)]!,
    versionList: Array.from({ length: Math.floor(next() * 5) }, () => randomEntry(next)),
  });
  const products = (count: number) => Array.from({ length: count }, product);
  return { affected: products(Math.floor(next() * 3)), adpAffected: next() < 0.3 ? products(1 + Math.floor(next() * 2)) : undefined };
}

describe('the range index', () => {
  it('answers as the record-by-record check on random records, at every ranked version', () => {
    // Blocks of stretches as the index cuts them, and small ones, so that a group holds many (and one of a stretch each).
    for (const [seed, block] of [
      [1, undefined],
      [2, 1],
      [3, 3],
      [4, 16],
      [5, 64],
    ] as const) {
      const next = random(seed);
      const records = Array.from({ length: 400 }, () => randomRecord(next));
      const builder = new RangeIndexBuilder();
      for (const [position, record] of records.entries()) builder.add(position, record, new Set());
      const index = build(builder, block);
      const versions = [
        '0',
        '1',
        '1.0',
        '1.1',
        '1.2',
        '1.2.0',
        '1.2.3',
        '1.2.4',
        '1.2.10',
        '1.3',
        '1.10',
        '1.10.5',
        '2',
        '2.0.0',
        '2.0.1',
        '2.1',
        'v2.1',
        'V2.1.5',
        '3.0.15',
        '3.1',
        '6.1',
        '6.13',
        '9',
        // Commit ids: named by a record, beginning as one, and named by none.
        '1da177e4c3f4',
        '1da177e',
        'CCF74F2390D6AA',
        'abcdef12345',
      ];
      let answered = 0;
      for (const version of versions) {
        const check = (position: number) => checkRecord(records[position]!, version).status;
        for (const asked of ASKED) {
          const found = indexed(index.find(version, asked), asked, check);
          expect(found, version).toBeDefined();
          expect(found, `seed ${seed}, ${version}, ${[...asked]}`).toEqual(exhaustive(records.keys(), asked, check));
          answered += found!.size;
        }
      }
      expect(answered).toBeGreaterThan(0);
    }
  });

  it('leaves versions it neither ranks nor reads as commit ids to the check', () => {
    const index = build(new RangeIndexBuilder());
    for (const version of ['1.2.3-rc1', '01.2', '1.2.x', 'abc', '1234567']) {
      expect(isRankableVersion(version) || isCommitVersion(version), version).toBe(false);
      expect(index.find(version, ASKED[0]!)).toBeUndefined();
    }
    expect(index.find('1da177e4c3f4', ASKED[0]!)).toEqual({
      found: new Int32Array(0),
      statuses: [],
      checked: new Int32Array(0),
      positions: new Int32Array(0),
    });
    expect(index.find('6.1.5', ASKED[0]!)).toEqual({
      found: new Int32Array(0),
      statuses: [],
      checked: new Int32Array(0),
      positions: new Int32Array(0),
    });
  });

  it('answers as the check for every project of the shipped data, at versions next to its bounds', async () => {
    const snapshot = createSnapshot(await loadDefaultCatalog());
    const index = snapshot.versions.get();
    let walked = 0;
    let checked = 0;
    for (const [code, project] of snapshot.table.projectNames.entries()) {
      const positions = snapshot.filters.project(project);
      const names = projectNameKeys(project, snapshot.aliases.get(project) ?? []);
      const versions = new Set(['1', '6.1.5']);
      const commits = new Set(['abcdef12345']);
      for (const position of positions) {
        const json = snapshot.texts.details(position);
        const record = json === undefined ? undefined : recordVersions(JSON.parse(json));
        for (const product of record === undefined ? [] : [...record.affected, ...(record.adpAffected ?? [])]) {
          for (const entry of product.versionList ?? []) {
            for (const text of [entry.version, entry.lessThan, entry.lessThanOrEqual]) {
              if (text !== null && isCommitVersion(text) && commits.size < 4) {
                commits.add(text);
                if (isCommitVersion(text.slice(0, 7))) commits.add(text.slice(0, 7).toUpperCase());
              }
              const numbers = /^v?(\d+(?:\.\d+)*)/
                .exec(text ?? '')?.[1]
                ?.split('.')
                .map(BigInt);
              if (numbers === undefined) continue;
              const last = numbers.length - 1;
              for (const step of [-1n, 0n, 1n]) {
                if (numbers[last]! + step >= 0n) versions.add(numbers.map((n, i) => (i === last ? n + step : n)).join('.'));
              }
              versions.add([...numbers, 1n].join('.'));
            }
          }
        }
      }
      // At most 12 versions a project (the kernel's bounds give thousands), spread over its list.
      const list = [...versions].filter(isRankableVersion);
      const every = Math.max(1, Math.ceil(list.length / 12));
      for (const version of [...list.filter((_, i) => i % every === 0), ...commits]) {
        const check = (position: number) => index.checkProject(position, version, names).status;
        for (const asked of ASKED) {
          const answer = index.findInProject(code, version, asked)!;
          walked += positions.length;
          checked += answer.checked.length;
          expect(indexed(answer, asked, check), `${project} ${version}`).toEqual(exhaustive(positions, asked, check));
        }
      }
    }
    // Few records are left to the check one by one (the others are answered by rank, or not at all).
    expect(checked).toBeLessThan(walked / 10);
  }, 300_000);
});
