// A scripted cvelistV5 upstream for sync tests: CVE JSON 5 records made to order, and release assets in
// upstream's shapes (a baseline zip holding cves.zip holding cves/<year>/<n>xxx/<id>.json; a delta zip
// holding deltaCves/<id>.json), written into a folder as a release job would.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipBytes } from './zip-writer.js';

export interface UpstreamRecord {
  readonly id: string;
  readonly product?: string;
  readonly vendor?: string;
  readonly state?: 'PUBLISHED' | 'REJECTED';
  /** cveMetadata.dateUpdated. */
  readonly updated: string;
  readonly description?: string;
}

export function cveJson5(record: UpstreamRecord): string {
  const meta = {
    cveId: record.id,
    assignerOrgId: '00000000-0000-4000-8000-000000000000',
    assignerShortName: 'example',
    state: record.state ?? 'PUBLISHED',
    datePublished: '2026-01-01T00:00:00.000Z',
    dateUpdated: record.updated,
  };
  const containers =
    record.state === 'REJECTED'
      ? { cna: { rejectedReasons: [{ lang: 'en', value: 'Duplicate.' }], providerMetadata: { orgId: meta.assignerOrgId } } }
      : {
          cna: {
            providerMetadata: { orgId: meta.assignerOrgId },
            affected: [{ vendor: record.vendor ?? record.product ?? 'example', product: record.product ?? 'example', versions: [] }],
            descriptions: [{ lang: 'en', value: record.description ?? `A flaw in ${record.product ?? 'example'}.` }],
            references: [{ url: 'https://example.org/advisory' }],
          },
        };
  return JSON.stringify({ dataType: 'CVE_RECORD', dataVersion: '5.1', cveMetadata: meta, containers });
}

/** Where a record sits in a cvelistV5 tree: cves/2026/1xxx/CVE-2026-1001.json. */
export function treePath(id: string): string {
  const [, year, number] = id.split('-');
  return `cves/${year}/${Math.floor(Number(number) / 1000)}xxx/${id}.json`;
}

export const baselineName = (day: string) => `${day}_all_CVEs_at_midnight.zip.zip`;

/** A baseline asset around the bytes of its `cves.zip` (stored, as upstream stores it). */
export function baselineBytes(innerZip: Buffer): Buffer {
  return zipBytes([{ name: 'cves.zip', data: innerZip, store: true }]);
}

export function writeBaseline(dir: string, day: string, records: readonly UpstreamRecord[]): string {
  const inner = zipBytes(records.map((record) => ({ name: treePath(record.id), data: cveJson5(record) })));
  writeFileSync(join(dir, baselineName(day)), baselineBytes(inner));
  return baselineName(day);
}

export function writeDelta(dir: string, name: string, records: readonly UpstreamRecord[]): string {
  writeFileSync(join(dir, name), zipBytes(records.map((record) => ({ name: `deltaCves/${record.id}.json`, data: cveJson5(record) }))));
  return name;
}
