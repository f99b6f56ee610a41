// The details answer splices each record's stored details JSON into its body unparsed, so what a text
// store keeps must be the contract's field order whatever order the catalog gave (PostgreSQL's jsonb
// gives its own): the body is then what serializing the record's details gives, byte for byte.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSnapshotFile } from '../../src/catalog/snapshot/snapshot-file.js';
import { writeSnapshotFile } from '../../src/catalog/snapshot/snapshot-writer.js';
import { type CatalogFile, type CatalogRecord, CveRecordDetails, NO_DETAILS } from '../../src/contract/index.js';
import { detailsBody, recordDetails } from '../../src/core/details.js';
import { createSnapshot, type Snapshot } from '../../src/core/snapshot.js';

const cna = { container: 'cna', shortName: 'test' } as const;

function record(n: number): CatalogRecord {
  const id = `CVE-2024-${1000 + n}`;
  if (n % 5 === 4) return { id, project: 'curl', status: 'assigned-no-public-record', url: null };
  return {
    id,
    project: 'curl',
    status: 'public',
    url: `https://www.cve.org/CVERecord?id=${id}`,
    modified: '2024-06-01T10:00:00.000Z',
    details: {
      ...NO_DETAILS,
      title: n % 2 === 0 ? `Title ${n} “quoted” ✓` : null,
      description: `A flaw ${n}\nover two lines`,
      state: 'PUBLISHED',
      datePublished: '2024-05-01T00:00:00.000Z',
      problemTypes: [{ cweId: 'CWE-79', description: 'CWE-79 XSS', source: cna }],
      metrics: n % 3 === 0 ? [] : [{ version: '3.1', vector: 'CVSS:3.1/AV:N', baseScore: 9.8, severity: 'critical', source: cna }],
      kev: n % 2 === 1 ? { dateAdded: '2024-05-02', reference: null } : null,
      affected: [{ vendor: 'haxx', product: 'curl', packageName: null, packageURL: null, versions: 'affected before 8.0' }],
      references: [{ url: `https://example.org/${n}`, name: null, tags: ['patch'] }],
    },
  };
}

/** The same value with every object's keys in reverse order. */
function reversed<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reversed) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, field]) => [key, reversed(field)]),
  ) as T;
}

const catalog: CatalogFile = { lastVerified: '2025-01-24', records: Array.from({ length: 20 }, (_, n) => record(n)) };
const shuffled: CatalogFile = {
  ...catalog,
  records: catalog.records.map((r) => ({ ...r, ...(r.details ? { details: reversed(r.details) } : {}) })),
};

/** What the contract's serializer writes: the schema's field order, as the batch of details answers. */
function contractJson(snapshot: Snapshot, position: number): string {
  const details = recordDetails(snapshot.entryAt(position)) as Record<string, unknown>;
  const ordered = (schema: { properties?: Record<string, unknown>; items?: unknown }, value: unknown): unknown => {
    if (Array.isArray(value)) return value.map((item) => ordered(schema.items as typeof schema, item));
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(schema.properties!).map(([key, property]) => [
        key,
        ordered(property as typeof schema, (value as Record<string, unknown>)[key]),
      ]),
    );
  };
  return JSON.stringify(ordered(CveRecordDetails, details));
}

describe('the details body', () => {
  it('is what serializing the record with its details gives, in the contract order, whatever order the catalog used', () => {
    const snapshot = createSnapshot(shuffled);
    for (let position = 0; position < snapshot.size; position++) {
      expect(detailsBody(snapshot, position)).toBe(contractJson(snapshot, position));
    }
  });

  it('is the same from a snapshot file written from a catalog in another key order', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'details-body-'));
    try {
      const file = join(dir, 'catalog.snapshot');
      await writeSnapshotFile(file, shuffled);
      const fromFile = openSnapshotFile(file);
      const fromJson = createSnapshot(catalog);
      for (let position = 0; position < fromJson.size; position++) {
        expect(detailsBody(fromFile, position)).toBe(detailsBody(fromJson, position));
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
