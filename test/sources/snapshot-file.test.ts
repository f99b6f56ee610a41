// Issue 13, snapshot files: what the importer writes (`--out x.snapshot`) serves exactly what the JSON
// catalog serves (records, summaries, dates, projects and their aliases, search), the same catalog gives
// the same bytes, a damaged file is refused with a reason (a damaged search index, read when the search is
// first built, is not used: the index is built from the texts), and a snapshot replaced on disk keeps reading
// its own texts.
import { mkdtemp, open, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CatalogError } from '../../src/catalog/json/catalog-file.js';
import { writeCatalogFile } from '../../src/catalog/json/catalog-writer.js';
import { isSnapshotFile, openSnapshotFile } from '../../src/catalog/snapshot/snapshot-file.js';
import type { CatalogFile } from '../../src/contract/index.js';
import { search } from '../../src/core/search/search.js';
import { createSnapshot, type Snapshot } from '../../src/core/snapshot.js';
import { PREAMBLE_BYTES } from '../../src/core/snapshot-format.js';
import { fileSource } from '../../src/sources/file-source.js';
import { fixtureCatalog, loadDefaultCatalog } from '../support/app.js';

let dir: string;
let catalog: CatalogFile;
let snapshotPath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'snapshot-'));
  catalog = await loadDefaultCatalog();
  snapshotPath = join(dir, 'records.snapshot');
  await writeCatalogFile(snapshotPath, catalog);
});

/** Everything a request can read of a record. */
const served = (snapshot: Snapshot, position: number) => {
  const entry = snapshot.entryAt(position);
  return { ...entry.record, published: entry.published, modified: entry.modified, summary: entry.summary };
};

describe('a snapshot file of the embedded dataset', () => {
  it('serves every record as the JSON catalog does, with the same version', () => {
    const fromJson = createSnapshot(catalog);
    const fromFile = openSnapshotFile(snapshotPath);
    expect(isSnapshotFile(snapshotPath)).toBe(true);
    expect({ version: fromFile.version, lastVerified: fromFile.lastVerified, size: fromFile.size }).toEqual({
      version: fromJson.version,
      lastVerified: fromJson.lastVerified,
      size: 17_328,
    });
    for (let position = 0; position < fromJson.size; position++) {
      expect(served(fromFile, position)).toEqual(served(fromJson, position));
    }
    expect(fromFile.positionOf('CVE-2019-19065')).toBe(fromJson.positionOf('CVE-2019-19065'));
    // Each record knows when it last changed, to the millisecond, as the catalog says.
    const phpMyAdmin = catalog.records.find((record) => record.id === 'CVE-2025-24530')!;
    expect(phpMyAdmin.modified).toMatch(/^2025-01-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(fromFile.get('CVE-2025-24530')!.modified).toBe(phpMyAdmin.modified);
    expect(fromFile.projects.get().byCount).toEqual(fromJson.projects.get().byCount);
  });

  it('keeps the records that left the catalog, for the change feed, and counts them in the version', async () => {
    const withRemovals: CatalogFile = { ...fixtureCatalog, removed: [{ id: 'CVE-2024-0002', modified: '2025-01-01T12:00:00.000Z' }] };
    const path = join(dir, 'removals.snapshot');
    await writeCatalogFile(path, withRemovals);
    const fromFile = openSnapshotFile(path);
    expect(fromFile.removed).toEqual(withRemovals.removed);
    expect(fromFile.version).toBe(createSnapshot(withRemovals).version);
    expect(fromFile.version).not.toBe(createSnapshot(fixtureCatalog).version);
  });

  it('ranks searches as the JSON catalog does, aliases included', () => {
    const fromJson = createSnapshot(catalog);
    const fromFile = openSnapshotFile(snapshotPath);
    for (const query of ['remote code execution', 'linux kernel use after free', 'libcurl', 'phpmyadmin xss', 'Oracle MySQL 2016']) {
      const ids = (snapshot: Snapshot) => search(snapshot, query, 20).hits.map((hit) => [hit.entry.record.id, hit.score]);
      expect(ids(fromFile), query).toEqual(ids(fromJson));
      expect(ids(fromFile).length, query).toBeGreaterThan(0);
    }
  });

  it('is the same bytes for the same catalog, whatever the order of its records', async () => {
    const again = join(dir, 'again.snapshot');
    await writeCatalogFile(again, { ...catalog, records: [...catalog.records].reverse() });
    expect((await readFile(again)).equals(await readFile(snapshotPath))).toBe(true);
  });
});

describe('a damaged snapshot file', () => {
  const damaged = async (name: string, change: (bytes: Buffer) => Buffer): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, change(Buffer.from(await readFile(snapshotPath))));
    return path;
  };
  const refusal = (path: string) => {
    try {
      openSnapshotFile(path);
    } catch (error) {
      expect(error).toBeInstanceOf(CatalogError);
      return (error as Error).message;
    }
    throw new Error(`${path} was read`);
  };

  it('is refused when cut short, from another format version, or pointing outside itself', async () => {
    expect(refusal(await damaged('cut.snapshot', (bytes) => bytes.subarray(0, bytes.length - 100)))).toMatch(/cut short/);
    // A file of format 3 has no filter columns (severity, KEV, CWE), one of format 4 no word counts for the
    // search overlay: each is refused by its number, to import again.
    for (const format of [99, 3, 4]) {
      const file = await damaged(`format${format}.snapshot`, (bytes) => {
        bytes.writeUInt32LE(format, 8);
        return bytes;
      });
      expect(refusal(file)).toMatch(new RegExp(`snapshot format ${format}; this service reads format 5: import again`));
    }
    // The projectOf column of the first record pointing past the project names.
    const header = JSON.parse((await readFile(snapshotPath)).subarray(PREAMBLE_BYTES).toString('utf8').split('\u0000')[0]!) as {
      sections: { name: string; offset: number }[];
    };
    const projectOf = header.sections.find((section) => section.name === 'projectOf')!.offset;
    expect(
      refusal(
        await damaged('wild.snapshot', (bytes) => {
          bytes.writeUInt32LE(0xffffffff, projectOf);
          return bytes;
        }),
      ),
    ).toMatch(/record columns is inconsistent/);
  });

  it('with a damaged search index serves its records and does not use the index: it is built from the texts', async () => {
    const header = JSON.parse((await readFile(snapshotPath)).subarray(PREAMBLE_BYTES).toString('utf8').split('\u0000')[0]!) as {
      sections: { name: string; offset: number }[];
    };
    const docs = header.sections.find((section) => section.name === 'docs')!.offset;
    // The first posting pointing past the records: the index is read only when the search is first built.
    const fromFile = openSnapshotFile(
      await damaged('wild-index.snapshot', (bytes) => {
        bytes.writeInt32LE(0x7fffffff, docs);
        return bytes;
      }),
    );
    const fromJson = createSnapshot(catalog);
    expect(served(fromFile, 100)).toEqual(served(fromJson, 100));
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      await fromFile.search.prepare();
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([
      expect.stringMatching(/wild-index\.snapshot: search index not used \(snapshot search index is inconsistent\)/),
    ]);
    const ids = (snapshot: Snapshot) =>
      search(snapshot, 'linux kernel use after free', 20).hits.map((hit) => [hit.entry.record.id, hit.score]);
    expect(ids(fromFile)).toEqual(ids(fromJson));
  });

  it('that is not a snapshot at all is read as a JSON catalog, and refused as one', async () => {
    const path = await damaged('not.snapshot', (bytes) => {
      bytes.write('NOTASNAP', 0, 'latin1');
      return bytes;
    });
    expect(isSnapshotFile(path)).toBe(false);
    await expect(fileSource(path).load()).rejects.toThrow(/not valid JSON/);
  });
});

describe('a snapshot replaced on disk', () => {
  it('keeps reading its own summaries while the new file serves the new catalog', async () => {
    const path = join(dir, 'live.snapshot');
    const before: CatalogFile = { ...fixtureCatalog };
    await writeCatalogFile(path, before);
    const old = openSnapshotFile(path);
    const position = old.positionOf('CVE-2024-50000')!;
    const summary = old.entryAt(position).summary;
    expect(summary).toMatch(/SOCKS5/);

    const changed = fixtureCatalog.records.map((record) =>
      record.id === 'CVE-2024-50000' ? { ...record, summary: 'A different text, of another length altogether.' } : record,
    );
    await writeCatalogFile(join(dir, 'next.snapshot'), { ...fixtureCatalog, records: changed });
    await rename(join(dir, 'next.snapshot'), path);
    // Fill the freed blocks, so a read through a stale path would not find the old bytes by luck.
    const filler = await open(join(dir, 'filler'), 'w');
    await filler.write(Buffer.alloc(1 << 20, 'x'));
    await filler.close();

    expect(old.entryAt(position).summary).toBe(summary);
    const current = openSnapshotFile(path);
    expect(current.entryAt(current.positionOf('CVE-2024-50000')!).summary).toBe('A different text, of another length altogether.');
  });
});
