// Writes zip archives for tests and benchmarks: real ones (cvelistV5-shaped releases, nested zips, and
// the 340,000-entry corpus of the benchmark, whose entry count needs the ZIP64 end records) and hostile
// ones whose directory lies (a declared size far beyond the data, a wrong CRC, several entries sharing
// one body). Entries are deflated synchronously as they are added and written straight to the sink, so
// an archive of any size costs only its central directory in memory. (yazl deflates each entry in the
// thread pool at once when it is added, which took 9 GB and 34 s for 40,000 records.)
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntrySpec {
  readonly name: string;
  readonly data: Buffer | string;
  /** Stored as is instead of deflated. */
  readonly store?: boolean;
  /** The uncompressed size written in the headers, when it should lie about the data. */
  readonly declaredSize?: number;
  /** The CRC-32 written in the headers, when it should not match the data. */
  readonly crc?: number;
  /** Point this entry's directory record at the body of the entry with this name, written earlier. */
  readonly sharesBodyOf?: string;
  /** Mark the entry a symbolic link made on Unix (its data is the link's target), as `zip --symlinks` does. */
  readonly symlink?: boolean;
}

interface CentralFields {
  readonly method: number;
  readonly crc: number;
  readonly compressed: number;
  readonly size: number;
}

const MAX_16 = 0xffff;
const ARENA_BYTES = 1 << 20;
const MAX_32 = 0xffffffff;

export class ZipWriter {
  readonly #write: (bytes: Buffer) => void;
  readonly #central: Buffer[] = [];
  readonly #bodies = new Map<string, { offset: number; fields: CentralFields }>();
  #arena = Buffer.allocUnsafe(ARENA_BYTES);
  #used = 0;
  #offset = 0;
  #count = 0;

  /** `write` receives the archive's bytes in order. */
  constructor(write: (bytes: Buffer) => void) {
    this.#write = write;
  }

  #emit(bytes: Buffer): void {
    this.#write(bytes);
    this.#offset += bytes.length;
  }

  add(entry: ZipEntrySpec): void {
    const name = Buffer.from(entry.name);
    const shared = entry.sharesBodyOf === undefined ? undefined : this.#bodies.get(entry.sharesBodyOf);
    let fields: CentralFields;
    let at: number;
    if (shared) {
      fields = { ...shared.fields, size: entry.declaredSize ?? shared.fields.size };
      at = shared.offset;
    } else {
      const raw = Buffer.from(entry.data);
      // An output buffer the entry's size, not zlib's 16 KB default: each call's buffer is garbage at once, but
      // 16 KB of it per entry outran the collector (7.3 GB of RSS writing the deployment bench's 340,000-record
      // baseline; 599 -> 257 MB peak at 20,000 records). Output past it only takes a second buffer.
      const body = entry.store ? raw : deflateRawSync(raw, { chunkSize: Math.max(64, raw.length + 64) });
      fields = {
        method: entry.store ? 0 : 8,
        crc: entry.crc ?? crc32(raw),
        compressed: body.length,
        size: entry.declaredSize ?? raw.length,
      };
      if (this.#offset > MAX_32 || fields.compressed > MAX_32 || fields.size > MAX_32) {
        throw new Error('an entry past 4 GiB needs ZIP64 extra fields, which this writer does not write');
      }
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(0x0800, 6); // names are UTF-8
      local.writeUInt16LE(fields.method, 8);
      local.writeUInt32LE(fields.crc, 14);
      local.writeUInt32LE(fields.compressed, 18);
      local.writeUInt32LE(fields.size, 22);
      local.writeUInt16LE(name.length, 26);
      at = this.#offset;
      this.#bodies.set(entry.name, { offset: at, fields });
      this.#emit(Buffer.concat([local, name, body]));
    }
    const record = this.#centralRecord(46 + name.length);
    record.writeUInt32LE(0x02014b50, 0);
    // Made by: Unix (3) for a symbolic link, whose file type sits in the high half of the external attributes.
    record.writeUInt16LE(entry.symlink ? (3 << 8) | 20 : 20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(0x0800, 8);
    record.writeUInt16LE(fields.method, 10);
    record.writeUInt32LE(fields.crc, 16);
    record.writeUInt32LE(fields.compressed, 20);
    record.writeUInt32LE(fields.size, 24);
    record.writeUInt16LE(name.length, 28);
    if (entry.symlink) record.writeUInt32LE((0o120777 << 16) >>> 0, 38);
    record.writeUInt32LE(at, 42);
    name.copy(record, 46);
    this.#count++;
  }

  /**
   * Room for a directory record, zeroed, in the directory's arena: a small buffer of its own per record
   * would hold a far larger block of memory each (about 32 KB, as measured), 10 GB at 340,000 entries.
   */
  #centralRecord(size: number): Buffer {
    if (this.#used + size > this.#arena.length) {
      this.#central.push(this.#arena.subarray(0, this.#used));
      this.#arena = Buffer.allocUnsafe(Math.max(ARENA_BYTES, size));
      this.#used = 0;
    }
    const record = this.#arena.subarray(this.#used, this.#used + size).fill(0);
    this.#used += size;
    return record;
  }

  /** The central directory and the end records (ZIP64 ones when the entries or offsets need them). */
  finish(): void {
    const directory = Buffer.concat([...this.#central, this.#arena.subarray(0, this.#used)]);
    const start = this.#offset;
    this.#emit(directory);
    const zip64 = this.#count >= MAX_16 || start >= MAX_32 || directory.length >= MAX_32;
    if (zip64) {
      const end64 = Buffer.alloc(56);
      end64.writeUInt32LE(0x06064b50, 0);
      end64.writeBigUInt64LE(44n, 4); // size of the rest of this record
      end64.writeUInt16LE(45, 12);
      end64.writeUInt16LE(45, 14);
      end64.writeBigUInt64LE(BigInt(this.#count), 24);
      end64.writeBigUInt64LE(BigInt(this.#count), 32);
      end64.writeBigUInt64LE(BigInt(directory.length), 40);
      end64.writeBigUInt64LE(BigInt(start), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(0x07064b50, 0);
      locator.writeBigUInt64LE(BigInt(this.#offset), 8);
      locator.writeUInt32LE(1, 16);
      this.#emit(Buffer.concat([end64, locator]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(Math.min(this.#count, MAX_16), 8);
    end.writeUInt16LE(Math.min(this.#count, MAX_16), 10);
    end.writeUInt32LE(Math.min(directory.length, MAX_32), 12);
    end.writeUInt32LE(Math.min(start, MAX_32), 16);
    this.#emit(end);
  }
}

/** The bytes of a zip holding the entries, in order. */
export function zipBytes(entries: readonly ZipEntrySpec[]): Buffer {
  const chunks: Buffer[] = [];
  const writer = new ZipWriter((bytes) => chunks.push(bytes));
  for (const entry of entries) writer.add(entry);
  writer.finish();
  return Buffer.concat(chunks);
}
