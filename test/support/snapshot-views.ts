// What a snapshot answers, collected for comparing two snapshots: every list page under several filters,
// every record's get-one answer and details, the whole change feed, the projects, and search answers.
// A snapshot patched by changes must answer exactly what one built whole from the same catalog answers.
import { expect } from 'vitest';
import type { CatalogFile, CatalogRecord } from '../../src/contract/index.js';
import { listChanges } from '../../src/core/changes.js';
import { createCursorCodec } from '../../src/core/cursor.js';
import { compareListingOrder } from '../../src/core/cve-id.js';
import { type ListQuery, listRecords } from '../../src/core/list.js';
import { search } from '../../src/core/search/search.js';
import type { Snapshot } from '../../src/core/snapshot.js';
import type { SnapshotChange } from '../../src/core/snapshot-delta.js';

const cursors = createCursorCodec('snapshot-views');

/** The catalog with a change applied, as the store of record would hold it: the reference a delta is checked against. */
export function mergeCatalog(catalog: CatalogFile, change: SnapshotChange): CatalogFile {
  const records = new Map(catalog.records.map((record) => [record.id, record]));
  const removed = new Map((catalog.removed ?? []).map((removal) => [removal.id, removal]));
  for (const record of change.upserted) {
    records.set(record.id, record);
    removed.delete(record.id);
  }
  for (const removal of change.removed) {
    records.delete(removal.id);
    removed.set(removal.id, removal);
  }
  const projects = new Map((catalog.projects ?? []).map((project) => [project.name, project.aliases]));
  for (const project of change.projects ?? []) projects.set(project.name, project.aliases);
  return {
    lastVerified: change.lastVerified,
    projects: [...projects].filter(([, aliases]) => aliases.length > 0).map(([name, aliases]) => ({ name, aliases })),
    records: [...records.values()].sort((a, b) => compareListingOrder(a.id, b.id)),
    removed: [...removed.values()],
  };
}

/** Every page of a list, in order. */
function allPages(snapshot: Snapshot, query: ListQuery): unknown[] {
  const pages: unknown[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = listRecords(snapshot, { ...query, limit: 3, cursor }, cursors);
    pages.push(page);
    if (page.pagination.nextCursor === null) return pages;
    cursor = page.pagination.nextCursor;
  }
}

function changeFeed(snapshot: Snapshot): unknown[] {
  const pages: unknown[] = [];
  let since: string | undefined;
  for (;;) {
    const page = listChanges(snapshot, { limit: 4, since }, cursors);
    pages.push(page);
    if (!page.pagination.hasMore) return pages;
    since = page.pagination.next;
  }
}

/** The answers of a snapshot that a change may move, each as plain data. */
export function answersOf(snapshot: Snapshot, ids: readonly string[], queries: readonly string[], listQueries: readonly ListQuery[]) {
  return {
    version: snapshot.version,
    lastVerified: snapshot.lastVerified,
    size: snapshot.size,
    lists: listQueries.map((query) => allPages(snapshot, query)),
    records: ids.map((id) => {
      const entry = snapshot.get(id);
      if (!entry) return null;
      const { position, record, published, modified, summary } = entry;
      return { position, record, published, modified, summary, details: snapshot.detailsJson(position) };
    }),
    changes: changeFeed(snapshot),
    projects: snapshot.projects.get().summaries,
    projectsByCount: snapshot.projects.get().byCount,
    search: queries.map((query) => {
      const result = search(snapshot, query, 10);
      return { hits: result.hits.map((hit) => [hit.entry.record.id, hit.score]), explanation: result.explanation };
    }),
  };
}

/** That a snapshot answers every question as the one built whole from the catalog does. */
export function expectSameAnswers(
  actual: Snapshot,
  expected: Snapshot,
  catalog: Pick<CatalogFile, 'records'>,
  queries: readonly string[],
  listQueries: readonly ListQuery[],
): void {
  const ids = [...new Set([...catalog.records.map((record: CatalogRecord) => record.id), ...actual.table.ids, ...expected.table.ids])];
  expect(answersOf(actual, ids, queries, listQueries)).toEqual(answersOf(expected, ids, queries, listQueries));
}
