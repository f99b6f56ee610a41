// Streams the `.json` entries of a zip file, one entry in memory at a time, as their stored bytes: an
// entry is inflated and decoded by unpackText wherever the text is needed (in the importer's worker
// threads, so the thread reading the archive only reads). A zip inside the zip (the cvelistV5 release
// zips hold `cves.zip`) is copied to a temporary file and read the same way.
//
// An archive is untrusted input: what it may inflate to is bounded before anything is inflated, from
// the sizes its directory declares (yauzl holds each entry to its declared size). The bound covers the
// whole archive, its nested zips included, so neither a nested zip copied to disk nor many entries
// sharing one compressed body (a "better zip bomb") can cost more than a fixed multiple of its size.
//
// Two kinds of trouble, kept apart. Hostile or damaged structure, at any level of nesting (not a zip,
// cut short, a bomb, an entry lying about its size or checksum, overlapping entries, an unsafe path, a
// symbolic link), is an ArchiveDamage: the archive as a whole cannot be trusted, and a sync refuses it.
// A bad record in a sound archive (not UTF-8, over the size limit, encrypted, a zip nested too deep) is
// an error of that entry alone, which the import skips and reports.
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

/** The structure of an archive is hostile or damaged: nothing of it may be trusted. */
export class ArchiveDamage extends Error {}

/** Deflate cannot inflate more than 1,032 times its size; an entry declaring more lies about its size. */
const MAX_DEFLATE_RATIO = 1032;
/** Room for the few bytes a tiny deflate stream still takes. */
const DEFLATE_SLACK_BYTES = 1024;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Why an entry's directory record is hostile, or null: checked for every entry, whatever its name. */
function hostileEntry(entry: Entry, name: string): string | null {
  const unsafe = unsafeEntryName(name);
  if (unsafe !== null) return unsafe;
  // A Unix-made entry keeps its file mode in the high half of its external attributes.
  if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) return 'entry is a symbolic link';
  if (entry.compressionMethod === 8 && entry.uncompressedSize > entry.compressedSize * MAX_DEFLATE_RATIO + DEFLATE_SLACK_BYTES) {
    return `entry declares ${entry.uncompressedSize} bytes, more than its ${entry.compressedSize} deflated bytes can hold`;
  }
  return null;
}

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
 * Yields `{name, packed}` for every file entry whose name ends in `.json` (directories and other files
 * are skipped), or `{name, error}` when that one entry cannot be read (unsupported compression,
 * encrypted, too large, a zip nested too deep). Hostile or damaged structure anywhere, nested zips
 * included, rejects the iteration with an ArchiveDamage; so does an archive yauzl cannot read (not a zip,
 * a truncated central directory). Damage only inflating shows (a size or checksum that does not match)
 * is found where an entry is unpacked (unpackText).
 */
export async function* readZipEntries(zipPath: string, options: ReadZipOptions = {}): AsyncGenerator<ZipEntry, void, undefined> {
  const archiveBytes = (await stat(zipPath)).size;
  const total = options.maxTotalBytes ?? inflationBudget(archiveBytes);
  yield* readEntries(zipPath, options, { left: total, total, archiveBytes });
}

async function* readEntries(zipPath: string, options: ReadZipOptions, budget: Budget): AsyncGenerator<ZipEntry, void, undefined> {
  const maxEntryBytes = options.maxEntryBytes ?? MAX_ENTRY_BYTES;
  // decodeStrings: false: names are decoded and checked below, the same way at every level.
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
    throw new ArchiveDamage(errorMessage(error));
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
    fatal ??= new ArchiveDamage(err.message);
    const w = waiter;
    waiter = undefined;
    w?.reject(fatal);
  });

  const nextEntry = (): Promise<NextEntry> =>
    new Promise<NextEntry>((resolve, reject) => {
      if (fatal) return reject(fatal);
      waiter = { resolve, reject };
      zip.readEntry();
    });

  // Where the entries read lie in the file, to find two that share or overlap their bytes.
  const spans = new EntrySpans();
  try {
    for (;;) {
      const next = await nextEntry();
      if ('end' in next) {
        spans.check();
        return;
      }
      const entry = next.entry;
      let name: string;
      try {
        name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
      } catch (err) {
        throw new ArchiveDamage(`cannot decode the name of entry ${entry.fileNameRaw.toString('latin1')}: ${errorMessage(err)}`);
      }
      const hostile = hostileEntry(entry, name);
      if (hostile !== null) throw new ArchiveDamage(`${hostile}: ${name}`);
      if (name.endsWith('/')) continue; // directory
      const nested = name.toLowerCase().endsWith('.zip');
      if (!nested && !name.toLowerCase().endsWith('.json')) continue;
      if (entry.uncompressedSize > budget.left) {
        // Past the bound nothing more of this archive is inflated: the rest is refused at once.
        throw new ArchiveDamage(
          `archive would inflate to more than ${budget.total} bytes (${INFLATION_RATIO} times its ${budget.archiveBytes} bytes, ` +
            `at least ${MIN_INFLATION_BUDGET}): refused as a zip bomb at ${name}`,
        );
      }
      budget.left -= entry.uncompressedSize;
      if (!nested && entry.uncompressedSize > maxEntryBytes) {
        // An honest record too large to read (a bomb or a lie was refused above): skipped unread.
        yield { name, error: `entry is ${entry.uncompressedSize} bytes, over the ${maxEntryBytes} byte limit` };
        continue;
      }
      if (!entry.canDecodeFileData() || entry.isEncrypted()) {
        const why = entry.isEncrypted() ? 'entry is encrypted' : `unsupported compression method ${entry.compressionMethod}`;
        // A zip that cannot be opened hides every record in it (a baseline's cves.zip): not one record lost.
        if (nested) throw new ArchiveDamage(`${why}: ${name}`);
        yield { name, error: why };
        continue;
      }
      const fileDataStart = await localFileData(zip, entry, name);
      spans.add(entry.relativeOffsetOfLocalHeader, fileDataStart + entry.compressedSize, name);
      // Copied to disk, not memory: the size limit is for entries read whole.
      if (nested) {
        yield* readNestedZip(zip, entry, name, options, budget);
        if (fatal) throw fatal;
        continue;
      }
      const stored = reader.bytes(fileDataStart, entry.compressedSize);
      if (stored.length !== entry.compressedSize) throw new ArchiveDamage(`entry data is cut short: ${name}`);
      yield {
        name,
        packed: { data: new Uint8Array(stored), method: entry.compressionMethod, size: entry.uncompressedSize, crc: entry.crc32 },
      };
    }
  } finally {
    if (zip.isOpen) zip.close();
  }
}

/** Where an entry's data starts, from its local header (yauzl checks the header and the bounds). */
async function localFileData(zip: ZipFile, entry: Entry, name: string): Promise<number> {
  try {
    return (await zip.readLocalFileHeaderPromise(entry, { minimal: true })).fileDataStart;
  } catch (err) {
    throw new ArchiveDamage(`${errorMessage(err)}: ${name}`);
  }
}

/**
 * The byte ranges of the entries read (local header to the end of the data), checked once the directory
 * is read: two entries sharing or overlapping their bytes (the "better zip bomb", or a forged archive)
 * mean the directory cannot be trusted. An entry overlapping the one before is refused at once; others at
 * the end, because a directory need not list entries in file order (whatever was inflated before is within
 * the inflation bound, and the archive is refused whole).
 */
class EntrySpans {
  readonly #starts: number[] = [];
  readonly #ends: number[] = [];
  readonly #names: string[] = [];
  #ordered = true;

  add(start: number, end: number, name: string): void {
    const last = this.#starts.length - 1;
    if (last >= 0 && start < this.#ends[last]!) {
      // Overlapping the entry just read (as every copy of a shared body does) is refused at once.
      if (end > this.#starts[last]!) throw overlap(this.#names[last]!, name);
      this.#ordered = false;
    }
    this.#starts.push(start);
    this.#ends.push(end);
    this.#names.push(name);
  }

  check(): void {
    const order = this.#starts.map((_, index) => index);
    if (!this.#ordered) order.sort((a, b) => this.#starts[a]! - this.#starts[b]!);
    for (let i = 1; i < order.length; i++) {
      const [before, after] = [order[i - 1]!, order[i]!];
      if (this.#starts[after]! < this.#ends[before]!) throw overlap(this.#names[before]!, this.#names[after]!);
    }
  }
}

const overlap = (first: string, second: string) => new ArchiveDamage(`entries overlap in the file: ${first} and ${second}`);

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
      await pipeline(await zip.openReadStreamPromise(entry), createWriteStream(file));
    } catch (err) {
      throw new ArchiveDamage(`cannot extract nested zip ${name}: ${errorMessage(err)}`);
    }
    try {
      for await (const inner of readEntries(file, { ...options, maxNesting: depth - 1 }, budget)) {
        yield { ...inner, name: `${name}!/${inner.name}` };
      }
    } catch (err) {
      // Damage inside names the path to it; a reader's own failure (a full disk) stays what it is.
      if (err instanceof ArchiveDamage) throw new ArchiveDamage(`in ${name}: ${err.message}`);
      throw err;
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * The text of a packed entry; throws an ArchiveDamage when its data does not match what the directory
 * declares (the archive is damaged or lies), an Error when the text is not UTF-8 (a bad record).
 */
export function unpackText(packed: PackedEntry): string {
  let data: Uint8Array;
  if (packed.method === 0) data = packed.data;
  else {
    try {
      // Never more than the size the directory declares, which the inflation budget has counted.
      data = inflateRawSync(packed.data, { maxOutputLength: Math.max(1, packed.size) });
    } catch (err) {
      throw new ArchiveDamage(
        (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE'
          ? `entry inflates to more than its declared ${packed.size} bytes`
          : `entry data is corrupt: ${errorMessage(err)}`,
      );
    }
  }
  if (data.length !== packed.size) throw new ArchiveDamage(`entry is ${data.length} bytes, not the ${packed.size} its directory declares`);
  // yauzl checks sizes but not the checksum.
  if (packed.crc !== undefined && crc32(data) !== packed.crc) throw new ArchiveDamage('CRC-32 mismatch: entry data is corrupt');
  try {
    return utf8.decode(data); // a leading BOM is dropped by the decoder
  } catch {
    throw new Error('not valid UTF-8');
  }
}
