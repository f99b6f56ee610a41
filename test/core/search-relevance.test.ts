// The relevance table: queries people type, run over the shipped catalog, with what must be true of
// the answer. The table lives in test/fixtures/search/relevance.json so it can grow without code.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RecordStatus } from '../../src/contract/index.js';
import { type SearchHit, type SearchResult, search } from '../../src/core/search/search.js';
import { createSnapshot, type Snapshot } from '../../src/core/snapshot.js';
import { loadDefaultCatalog } from '../support/app.js';
import { repositoryUrl } from '../support/paths.js';

interface Expectation {
  /** No hit at all. */
  readonly empty?: boolean;
  readonly count?: number;
  /** Exactly these hits, in this order. */
  readonly ids?: readonly string[];
  /** The hits begin with these, in this order. */
  readonly firstIds?: readonly string[];
  /** There are at least n hits and the first n each belong to one of the projects. */
  readonly topProjects?: { readonly n: number; readonly projects: readonly string[] };
  readonly allProjects?: readonly string[];
  readonly allStatus?: RecordStatus;
  /** Inclusive bounds on every hit's identifier year. */
  readonly years?: { readonly from?: number; readonly to?: number };
  /** Case-insensitive patterns that every hit's project and summary must match. */
  readonly allText?: readonly string[];
  readonly firstScore?: { readonly min?: number; readonly max?: number };
  /** Lines the explanation must contain. */
  readonly explains?: readonly string[];
}

interface RelevanceCase {
  readonly query: string;
  readonly limit?: number;
  readonly why: string;
  readonly expect: Expectation;
}

const table = JSON.parse(readFileSync(repositoryUrl('test/fixtures/search/relevance.json'), 'utf8')) as {
  cases: RelevanceCase[];
};

const text = (hit: SearchHit) => `${hit.entry.record.project}\n${hit.entry.summary ?? ''}`;
const year = (hit: SearchHit) => Number(hit.entry.record.id.slice(4, 8));

function check(result: SearchResult, want: Expectation): void {
  const { hits } = result;
  const ids = hits.map((hit) => hit.entry.record.id);
  if (want.empty) expect(ids).toEqual([]);
  else expect(hits.length).toBeGreaterThan(0);
  if (want.count !== undefined) expect(hits).toHaveLength(want.count);
  if (want.ids) expect(ids).toEqual(want.ids);
  if (want.firstIds) expect(ids.slice(0, want.firstIds.length)).toEqual(want.firstIds);
  if (want.topProjects) {
    expect(hits.length).toBeGreaterThanOrEqual(want.topProjects.n);
    for (const hit of hits.slice(0, want.topProjects.n)) expect(want.topProjects.projects).toContain(hit.entry.record.project);
  }
  for (const hit of hits) {
    if (want.allProjects) expect(want.allProjects).toContain(hit.entry.record.project);
    if (want.allStatus) expect(hit.entry.record.status).toBe(want.allStatus);
    if (want.years?.from !== undefined) expect(year(hit)).toBeGreaterThanOrEqual(want.years.from);
    if (want.years?.to !== undefined) expect(year(hit)).toBeLessThanOrEqual(want.years.to);
    for (const pattern of want.allText ?? []) expect(text(hit)).toMatch(new RegExp(pattern, 'i'));
  }
  if (want.firstScore?.min !== undefined) expect(hits[0]!.score).toBeGreaterThanOrEqual(want.firstScore.min);
  if (want.firstScore?.max !== undefined) expect(hits[0]!.score).toBeLessThanOrEqual(want.firstScore.max);
  for (const line of want.explains ?? []) expect(result.explanation).toContain(line);
}

describe('search relevance over the shipped catalog', () => {
  let snapshot: Snapshot;
  beforeAll(async () => {
    snapshot = createSnapshot(await loadDefaultCatalog());
  });

  it('has a table worth the name', () => {
    expect(table.cases.length).toBeGreaterThanOrEqual(30);
    for (const { expect: want } of table.cases) expect(Object.keys(want).length).toBeGreaterThan(0);
  });

  it.each(table.cases)('$query: $why', ({ query, limit = 10, expect: want }) => {
    const result = search(snapshot, query, limit);
    check(result, want);

    // Whatever the query: at most `limit` hits, scores in [0, 1] and never rising, the same answer twice.
    expect(result.hits.length).toBeLessThanOrEqual(limit);
    result.hits.forEach((hit, i) => {
      expect(hit.score).toBeGreaterThanOrEqual(0);
      expect(hit.score).toBeLessThanOrEqual(1);
      if (i > 0) expect(hit.score).toBeLessThanOrEqual(result.hits[i - 1]!.score);
    });
    const again = search(snapshot, query, limit);
    expect(again.hits.map((hit) => [hit.entry.record.id, hit.score])).toEqual(result.hits.map((hit) => [hit.entry.record.id, hit.score]));
    expect(again.explanation).toEqual(result.explanation);
  });
});
