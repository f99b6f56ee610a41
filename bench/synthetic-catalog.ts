// Synthetic catalogs of realistic shape for the scale benchmarks: real-looking project names and summaries.
import { writeFile } from 'node:fs/promises';
import { type CatalogFile, type CatalogRecord, type RecordDetails, SEVERITIES } from '../src/contract/index.js';

const projects = [
  'Linux',
  'openssl',
  'curl',
  'PostgreSQL',
  'nginx',
  'Apache HTTP Server',
  'libxml2',
  'OpenSSH',
  'Python',
  'Node.js',
  'Django',
  'WordPress',
  'ImageMagick',
  'FFmpeg',
  'Git',
  'Vim',
  'sudo',
  'glibc',
  'zlib',
  'SQLite',
];
const weaknesses = [
  'heap-based buffer overflow',
  'use-after-free',
  'SQL injection',
  'cross-site scripting',
  'NULL pointer dereference',
  'integer overflow',
  'path traversal',
  'out-of-bounds read',
  'race condition',
  'improper certificate validation',
];
const components = [
  'parser',
  'TLS handshake',
  'HTTP/2 handler',
  'authentication module',
  'image decoder',
  'URL parser',
  'memory allocator',
  'SSH agent',
  'template engine',
  'compression routine',
];

/** A CVSS 3.1 vector and base score per severity (critical, high, medium, low, none). */
const cvss = [
  ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 9.8],
  ['CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:H/I:H/A:H', 8.8],
  ['CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N', 6.1],
  ['CVSS:3.1/AV:L/AC:H/PR:L/UI:N/S:U/C:L/I:N/A:N', 2.5],
  ['CVSS:3.1/AV:L/AC:H/PR:H/UI:R/S:U/C:N/I:N/A:N', 0],
] as const;
const cwes = ['CWE-122', 'CWE-416', 'CWE-89', 'CWE-79', 'CWE-476', 'CWE-190', 'CWE-22', 'CWE-125', 'CWE-362', 'CWE-295'];

/**
 * Minimal but valid details, spread so that filters select real shares: a quarter of the records are
 * critical (i % 4 === 0, the rest high, medium, low), a third are in KEV (i % 3 === 0), so critical and in
 * KEV is one record in twelve: about 27,000 public ones at 340,000, over 1,000 pages of 20.
 */
function syntheticDetails(i: number, id: string, project: string, summary: string, published: string): RecordDetails {
  const rating = i % 4;
  const [vector, baseScore] = cvss[rating]!;
  const weakness = (i * 7) % weaknesses.length;
  const source = { container: 'cna', shortName: 'bench' } as const;
  return {
    title: null,
    description: summary,
    state: 'PUBLISHED',
    assigner: 'bench',
    datePublished: `${published}T00:00:00.000Z`,
    dateUpdated: `${published}T12:00:00.000Z`,
    problemTypes: [{ cweId: cwes[weakness]!, description: `${cwes[weakness]} ${weaknesses[weakness]}`, source }],
    metrics: [{ version: '3.1', vector, baseScore, severity: SEVERITIES[rating]!, source }],
    kev:
      i % 3 === 0 ? { dateAdded: published, reference: `https://www.cisa.gov/known-exploited-vulnerabilities-catalog?search=${id}` } : null,
    ssvc: null,
    affected: [
      {
        vendor: project,
        product: project,
        packageName: null,
        packageURL: null,
        versions: `affected from 0 before ${1 + (i % 9)}.${i % 17}`,
      },
    ],
    references: [{ url: `https://example.org/advisories/${id}`, name: null, tags: ['vendor-advisory'] }],
  };
}

/** Deterministic: record i is always the same. Public records carry details when asked for. */
export function syntheticRecord(i: number, { details = false } = {}): CatalogRecord {
  const year = 2025 - (i % 26);
  const seq = 1000 + Math.floor(i / 26);
  const project = i % 7 === 0 ? `${projects[i % projects.length]}-plugin-${i % 5000}` : projects[i % projects.length]!;
  const weakness = weaknesses[(i * 7) % weaknesses.length]!;
  const component = components[(i * 13) % components.length]!;
  const id = `CVE-${year}-${seq}`;
  const isPublic = i % 50 !== 0;
  const summary = `A ${weakness} in the ${component} of ${project} before version ${1 + (i % 9)}.${i % 17} allows a remote attacker to cause a denial of service or possibly execute arbitrary code via crafted input.`;
  const published = `${year}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
  return {
    id,
    project,
    status: isPublic ? 'public' : 'assigned-no-public-record',
    url: isPublic ? `https://www.cve.org/CVERecord?id=${id}` : null,
    summary,
    published,
    ...(details && isPublic ? { details: syntheticDetails(i, id, project, summary, published) } : {}),
  };
}

export async function writeSyntheticCatalog(file: string, count: number, options: { details?: boolean } = {}): Promise<void> {
  const catalog: CatalogFile = {
    lastVerified: '2025-01-24',
    records: Array.from({ length: count }, (_, i) => syntheticRecord(i, options)),
  };
  await writeFile(file, JSON.stringify(catalog));
}
