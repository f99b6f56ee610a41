import { createHash } from 'node:crypto';
import type { CatalogFile, CatalogRecord, CveRecord } from '../contract/index.js';
import { compareListingOrder } from './cve-id.js';
import { Derived, derived } from './derived.js';
import { type ProjectTable, projectTable } from './projects.js';
import type { ListFilters, RecordEntry } from './record-entry.js';
import { type SearchIndex, searchIndexSteps } from './search/search-index.js';

export type { ListFilters, RecordEntry } from './record-entry.js';

/**
 * An immutable view of one catalog version. Built once per load; requests only read it, and a reload
 * replaces the whole object, so a request that started on one snapshot finishes on it.
 */
export interface Snapshot {
  /** Content hash of the catalog: the same records give the same version whatever their source. */
  readonly version: string;
  readonly lastVerified: string;
  readonly size: number;
  readonly loadedAt: Date;
  get(id: string): RecordEntry | undefined;
  /** Records matching the filters exactly, in listing order. */
  select(filters: ListFilters): readonly CveRecord[];
  entries(): Iterable<RecordEntry>;
  /** The ranked-search structures, built on first use (or prepared in steps) and kept with the snapshot. */
  readonly search: Derived<SearchIndex>;
  /** The projects and their record counts, built on first use. */
  readonly projects: Derived<ProjectTable>;
}

const NONE: readonly CveRecord[] = Object.freeze([]);

export class DuplicateRecordError extends Error {
  constructor(readonly id: string) {
    super(`duplicate record id ${id}`);
  }
}

export function createSnapshot(catalog: CatalogFile): Snapshot {
  const sorted = [...catalog.records].sort((a, b) => compareListingOrder(a.id, b.id));
  const byId = new Map<string, RecordEntry>();
  const ordered: CveRecord[] = [];
  const byProject = new Map<string, CveRecord[]>();
  const byStatus = new Map<string, CveRecord[]>();
  const byBoth = new Map<string, CveRecord[]>();

  for (const source of sorted) {
    if (byId.has(source.id)) throw new DuplicateRecordError(source.id);
    const record = Object.freeze({ id: source.id, project: source.project, status: source.status, url: source.url });
    byId.set(record.id, Object.freeze({ record, summary: source.summary, published: source.published }));
    ordered.push(record);
    append(byProject, record.project, record);
    append(byStatus, record.status, record);
    append(byBoth, bothKey(record.project, record.status), record);
  }

  const inListingOrder = (): RecordEntry[] => ordered.map((record) => byId.get(record.id)!);
  return Object.freeze({
    version: contentVersion(catalog.lastVerified, sorted),
    lastVerified: catalog.lastVerified,
    size: ordered.length,
    loadedAt: new Date(),
    get: (id: string) => byId.get(id),
    select({ project, status }: ListFilters): readonly CveRecord[] {
      if (project !== undefined && status !== undefined) return byBoth.get(bothKey(project, status)) ?? NONE;
      if (project !== undefined) return byProject.get(project) ?? NONE;
      if (status !== undefined) return byStatus.get(status) ?? NONE;
      return ordered;
    },
    entries: () => byId.values(),
    search: new Derived(() => searchIndexSteps(inListingOrder())),
    projects: derived(() => projectTable(byId.values())),
  });
}

function append(index: Map<string, CveRecord[]>, key: string, record: CveRecord): void {
  const list = index.get(key);
  if (list) list.push(record);
  else index.set(key, [record]);
}

function bothKey(project: string, status: string): string {
  return `${status}\u0000${project}`;
}

function contentVersion(lastVerified: string, sorted: readonly CatalogRecord[]): string {
  const hash = createHash('sha256').update(lastVerified);
  for (const r of sorted) {
    hash.update(JSON.stringify([r.id, r.project, r.status, r.url, r.summary ?? null, r.published ?? null]));
  }
  return hash.digest('base64url').slice(0, 16);
}
