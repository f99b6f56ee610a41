// Synthetic catalogs of realistic shape for the scale benchmarks: real-looking project names and summaries.
import { writeFile } from 'node:fs/promises';
import type { CatalogFile, CatalogRecord } from '../src/contract/index.js';

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

/** Deterministic: record i is always the same. */
export function syntheticRecord(i: number): CatalogRecord {
  const year = 2025 - (i % 26);
  const seq = 1000 + Math.floor(i / 26);
  const project = i % 7 === 0 ? `${projects[i % projects.length]}-plugin-${i % 5000}` : projects[i % projects.length]!;
  const weakness = weaknesses[(i * 7) % weaknesses.length]!;
  const component = components[(i * 13) % components.length]!;
  const id = `CVE-${year}-${seq}`;
  const isPublic = i % 50 !== 0;
  return {
    id,
    project,
    status: isPublic ? 'public' : 'assigned-no-public-record',
    url: isPublic ? `https://www.cve.org/CVERecord?id=${id}` : null,
    summary: `A ${weakness} in the ${component} of ${project} before version ${1 + (i % 9)}.${i % 17} allows a remote attacker to cause a denial of service or possibly execute arbitrary code via crafted input.`,
    published: `${year}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
  };
}

export async function writeSyntheticCatalog(file: string, count: number): Promise<void> {
  const catalog: CatalogFile = { lastVerified: '2025-01-24', records: Array.from({ length: count }, (_, i) => syntheticRecord(i)) };
  await writeFile(file, JSON.stringify(catalog));
}
