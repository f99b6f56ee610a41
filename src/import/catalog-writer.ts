// Writes a catalog deterministically: the same records give byte-identical files, one record per line
// so that diffs of a dataset stay readable, written to a temporary file and renamed into place.
import { rename, writeFile } from 'node:fs/promises';
import type { CatalogFile, CatalogRecord } from '../contract/index.js';

function recordJson(r: CatalogRecord): string {
  const ordered: CatalogRecord = { id: r.id, project: r.project, status: r.status, url: r.url };
  if (r.summary !== undefined) ordered.summary = r.summary;
  if (r.published !== undefined) ordered.published = r.published;
  return JSON.stringify(ordered);
}

export function catalogJson(file: CatalogFile): string {
  const head = `{"lastVerified":${JSON.stringify(file.lastVerified)},"records":[`;
  if (file.records.length === 0) return `${head}]}\n`;
  return `${head}\n${file.records.map(recordJson).join(',\n')}\n]}\n`;
}

export async function writeCatalogFile(path: string, file: CatalogFile): Promise<number> {
  const text = catalogJson(file);
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, text, 'utf8');
  await rename(tmp, path);
  return Buffer.byteLength(text);
}
