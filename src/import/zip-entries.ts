// Streams the `.json` entries of a zip file, one entry in memory at a time, as their stored bytes: an
// entry is inflated and decoded by unpackText wherever the text is needed (in the importer's worker
// threads, so the thread reading the archive only reads). A zip inside the zip (the cvelistV5 release
// zips hold `cves.zip`) is copied to a temporary file and read the same way.
//
// An archive is untrusted input: what it may inflate to is bounded before anything is inflated, from
// the sizes its directory declares (yauzl holds each entry to its declared size). The bound covers the
// whole archive, its nested zips included, so neither a nested zip copied to disk nor many entries
// sharing one compressed body (a "better zip bomb") can cost more than a fixed multiple of its size.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { crc32, inflateRawSync } from 'node:zlib';
import type { Entry, ZipFile } from 'yauzl';
import yauzl from 'yauzl';
import { ZipFileReader } from './zip-file-reader.js';

/** An entry's bytes as stored, with what its directory declares of them. Plain data: it can go to a worker. */
export interface PackedEntry {
  /** Owns its buffer, so that it can be transferred to a worker without copying. */
  readonly data: Uint8Array;
  /** 0 stored, 8 deflated. */
  readonly method: number;
  /** The size the text must have, once inflated. */
  readonly size: number;
  /** The CRC-32 the text must have; none for a plain file. */
  readonly crc?: number | undefined;
}

export type ZipEntry = { name: string; packed: PackedEntry } | { name: string; error: string };

export interface ReadZipOptions {
  /** Entries larger than this (uncompressed) are reported as errors instead of read. Default 64 MiB. */
  maxEntryBytes?: number;
  /** How deep zips inside zips are followed. Default 2. */
  maxNesting?: number;
  /** Bytes the whole archive may inflate to, nested zips included. Default: see inflationBudget. */
  maxTotalBytes?: number;
}

/** No CVE record comes near this (the largest of the sample is 292 KB). */
export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

/**
 * Real CVE archives inflate about 4.4 times (the sample: 28 MB of deflated JSON to 125 MB, no entry over
 * 33 times); a zip inside a zip barely compresses. A hundred times the archive's size, and never less
 * than 256 MiB (a small archive of very repetitive JSON), leaves real archives far from the bound while
 * a bomb that inflates thousands of times its size is refused before it is inflated.
 */
export const INFLATION_RATIO = 100;
export const MIN_INFLATION_BUDGET = 256 * 1024 * 1024;
export const MAX_INFLATION_BUDGET = 64 * 1024 * 1024 * 1024;

export function inflationBudget(archiveBytes: number): number {
  return Math.min(MAX_INFLATION_BUDGET, Math.max(MIN_INFLATION_BUDGET, INFLATION_RATIO * archiveBytes));
}

/** What is left to inflate of an archive, shared by its nested zips. */
interface Budget {
  left: number;
  readonly total: number;
  readonly archiveBytes: number;
}

type NextEntry = { entry: Entry } | { end: true };

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Why an entry name is unsafe, or null. Names use '/' separators (yauzl already maps '\' to '/'). */
export function unsafeEntryName(name: string): string | null {
  if (name === '') return 'empty entry name';
  if (name.includes('\0')) return 'entry name contains NUL';
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return 'absolute entry path';
  if (name.split('/').includes('..')) return "entry path escapes with '..'";
  return null;
}

/**
 * Yields `{name, text}` for every file entry whose name ends in `.json` (directories and other files are
 * skipped), or `{name, error}` when that one entry cannot be read (unsafe name, unsupported compression,
 * corrupt data, invalid UTF-8, too large). Errors of the archive itself (not a zip, truncated central
 * directory) reject the iteration.
 */
export async function* readZipEntries(zipPath: string, options: ReadZipOptions = {}): AsyncGenerator<ZipEntry, void, undefined> {
  const archiveBytes = (await stat(zipPath)).size;
  const total = options.maxTotalBytes ?? inflationBudget(archiveBytes);
  yield* readEntries(zipPath, options, { left: total, total, archiveBytes });
}

async function* readEntries(zipPath: string, options: ReadZipOptions, budget: Budget): AsyncGenerator<ZipEntry, void, undefined> {
  const maxEntryBytes = options.maxEntryBytes ?? MAX_ENTRY_BYTES;
  // decodeStrings: false so that an unsafe name is an error of that entry, not of the whole archive
  // (yauzl would otherwise emit a fatal error on the zip file). Names are decoded below.
  const reader = new ZipFileReader(zipPath);
  let zip: ZipFile;
  try {
    zip = await yauzl.fromRandomAccessReaderPromise(reader, reader.size, {
      lazyEntries: true,
      autoClose: true,
      decodeStrings: false,
      validateEntrySizes: true,
    });
  } catch (error) {
    reader.close(() => {});
    throw error;
  }

  let fatal: Error | undefined;
  let waiter: { resolve: (next: NextEntry) => void; reject: (err: Error) => void } | undefined;
  zip.on('entry', (entry: Entry) => {
    const w = waiter;
    waiter = undefined;
    w?.resolve({ entry });
  });
  zip.on('end', () => {
    const w = waiter;
    waiter = undefined;
    w?.resolve({ end: true });
  });
  zip.on('error', (err: Error) => {
    fatal ??= err;
    const w = waiter;
    waiter = undefined;
    w?.reject(err);
  });

  const nextEntry = (): Promise<NextEntry> =>
    new Promise<NextEntry>((resolve, reject) => {
      if (fatal) return reject(fatal);
      waiter = { resolve, reject };
      zip.readEntry();
    });

  // Local headers already read: two entries at one offset share one compressed body.
  const bodies = new Set<number>();
  try {
    for (;;) {
      const next = await nextEntry();
      if ('end' in next) return;
      const entry = next.entry;
      let name: string;
      try {
        name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
      } catch (err) {
        yield { name: entry.fileNameRaw.toString('latin1'), error: `cannot decode entry name: ${errorMessage(err)}` };
        continue;
      }
      if (name.endsWith('/')) continue; // directory
      const nested = name.toLowerCase().endsWith('.zip');
      if (!nested && !name.toLowerCase().endsWith('.json')) continue;
      const unsafe = unsafeEntryName(name);
      if (unsafe !== null) {
        yield { name, error: unsafe };
        continue;
      }
      if (bodies.has(entry.relativeOffsetOfLocalHeader)) {
        yield { name, error: 'entry shares its compressed data with another entry: refused as a zip bomb' };
        continue;
      }
      bodies.add(entry.relativeOffsetOfLocalHeader);
      if (!nested && entry.uncompressedSize > maxEntryBytes) {
        yield { name, error: `entry is ${entry.uncompressedSize} bytes, over the ${maxEntryBytes} byte limit` };
        continue;
      }
      if (entry.uncompressedSize > budget.left) {
        // Past the bound nothing more of this archive is inflated: the rest is refused at once.
        throw new Error(
          `archive would inflate to more than ${budget.total} bytes (${INFLATION_RATIO} times its ${budget.archiveBytes} bytes, ` +
            `at least ${MIN_INFLATION_BUDGET}): refused as a zip bomb at ${name}`,
        );
      }
      budget.left -= entry.uncompressedSize;
      // Copied to disk, not memory: the size limit is for entries read whole.
      if (nested) {
        yield* readNestedZip(zip, entry, name, options, budget);
        if (fatal) throw fatal;
        continue;
      }
      try {
        yield { name, packed: await readPacked(zip, reader, entry, maxEntryBytes) };
      } catch (err) {
        if (fatal) throw fatal;
        yield { name, error: errorMessage(err) };
      }
    }
  } finally {
    if (zip.isOpen) zip.close();
  }
}

/** Copies a zip entry that is itself a zip to a temporary file and yields its entries as `outer!/inner`. */
async function* readNestedZip(
  zip: ZipFile,
  entry: Entry,
  name: string,
  options: ReadZipOptions,
  budget: Budget,
): AsyncGenerator<ZipEntry, void, undefined> {
  const depth = options.maxNesting ?? 2;
  if (depth <= 0) {
    yield { name, error: 'zip nested deeper than the nesting limit' };
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'cve-import-'));
  try {
    const file = join(dir, 'nested.zip');
    try {
      if (!entry.canDecodeFileData()) throw new Error(`unsupported compression method ${entry.compressionMethod}`);
      await pipeline(await zip.openReadStreamPromise(entry), createWriteStream(file));
    } catch (err) {
      yield { name, error: `cannot extract nested zip: ${errorMessage(err)}` };
      return;
    }
    try {
      for await (const inner of readEntries(file, { ...options, maxNesting: depth - 1 }, budget)) {
        yield { ...inner, name: `${name}!/${inner.name}` };
      }
    } catch (err) {
      yield { name, error: `nested zip is unreadable: ${errorMessage(err)}` };
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** An entry's stored bytes, in a buffer of their own; yauzl reads the local header and checks the bounds. */
async function readPacked(zip: ZipFile, reader: ZipFileReader, entry: Entry, maxEntryBytes: number): Promise<PackedEntry> {
  if (entry.isEncrypted()) throw new Error('entry is encrypted');
  if (!entry.canDecodeFileData()) throw new Error(`unsupported compression method ${entry.compressionMethod}`);
  if (entry.uncompressedSize > maxEntryBytes) throw new Error(`entry exceeds the ${maxEntryBytes} byte limit`);
  const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
  const stored = reader.bytes(fileDataStart, entry.compressedSize);
  if (stored.length !== entry.compressedSize) throw new Error('entry data is cut short');
  return { data: new Uint8Array(stored), method: entry.compressionMethod, size: entry.uncompressedSize, crc: entry.crc32 };
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The text of a packed entry; throws an Error saying what is wrong with it. */
export function unpackText(packed: PackedEntry): string {
  let data: Uint8Array;
  if (packed.method === 0) data = packed.data;
  else {
    try {
      // Never more than the size the directory declares, which the inflation budget has counted.
      data = inflateRawSync(packed.data, { maxOutputLength: Math.max(1, packed.size) });
    } catch (err) {
      throw new Error(
        (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE'
          ? `entry inflates to more than its declared ${packed.size} bytes`
          : `entry data is corrupt: ${errorMessage(err)}`,
      );
    }
  }
  if (data.length !== packed.size) throw new Error(`entry is ${data.length} bytes, not the ${packed.size} its directory declares`);
  // yauzl checks sizes but not the checksum.
  if (packed.crc !== undefined && crc32(data) !== packed.crc) throw new Error('CRC-32 mismatch: entry data is corrupt');
  try {
    return utf8.decode(data); // a leading BOM is dropped by the decoder
  } catch {
    throw new Error('not valid UTF-8');
  }
}
