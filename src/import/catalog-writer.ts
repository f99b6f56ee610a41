// Writes a catalog deterministically: the same records give byte-identical files, one record per line
// so that diffs of a dataset stay readable, written to a temporary file and renamed into place.
import { rename, rm, writeFile } from 'node:fs/promises';
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
  // Written beside the target and renamed over it: a reader (or a watching server) sees the old file or
  // the new one, never a part of one, and a failed write leaves the old file as it was.
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, text, 'utf8');
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
  return Buffer.byteLength(text);
}
