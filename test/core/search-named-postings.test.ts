// The records of named projects are kept per snapshot (named-postings.ts): what is kept must be what a
// fresh union of the projects' lists gives, scored as asked, and one snapshot's lists are never another's.
import { beforeAll, describe, expect, it } from 'vitest';
import { projectPositions, projectPostings } from '../../src/core/search/named-postings.js';
import { union } from '../../src/core/search/position-lists.js';
import { BLOCK } from '../../src/core/search/text-index.js';
import { createSnapshot, type Snapshot } from '../../src/core/snapshot.js';
import { loadDefaultCatalog } from '../support/app.js';

describe('the records of named projects, kept per snapshot', () => {
  let snapshot: Snapshot;
  let projects: string[];
  beforeAll(async () => {
    const catalog = await loadDefaultCatalog();
    snapshot = createSnapshot(catalog);
    // A vendor's worth of projects: every project whose name begins with "Cisco".
    projects = snapshot.table.projectNames.filter((name) => name.startsWith('Cisco')).sort();
  });

  it('are the union of the projects’ records, made once', () => {
    expect(projects.length).toBeGreaterThan(4);
    const fresh = union(projects.map((project) => snapshot.filters.project(project)));
    const kept = projectPositions(snapshot.filters, projects);
    expect([...kept]).toEqual([...fresh]);
    expect(projectPositions(snapshot.filters, [...projects])).toBe(kept);
  });

  it('score every record alike, with block maxima to match, per score asked', () => {
    const postings = projectPostings(snapshot.filters, projects, 2.5);
    expect(postings.docs).toBe(projectPositions(snapshot.filters, projects));
    expect([...new Set(postings.scores)]).toEqual([2.5]);
    expect(postings.blockMax.length).toBe(Math.ceil(postings.docs.length / BLOCK));
    expect(postings.maxScore).toBe(2.5);
    expect(projectPostings(snapshot.filters, projects, 2.5)).toBe(postings);
    expect([...new Set(projectPostings(snapshot.filters, projects, 4).scores)]).toEqual([4]);
  });

  it('are not shared between snapshots', async () => {
    const catalog = await loadDefaultCatalog();
    const other = createSnapshot({ ...catalog, records: catalog.records.filter((_, i) => i % 2 === 0) });
    const theirs = projectPositions(other.filters, projects);
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs).not.toBe(projectPositions(snapshot.filters, projects));
    expect([...theirs]).toEqual([...union(projects.map((project) => other.filters.project(project)))]);
  });
});
