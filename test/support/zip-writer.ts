// Writes zip archives for tests: real ones (cvelistV5-shaped releases, nested zips) and hostile ones
// whose directory lies (a declared size far beyond the data, several entries sharing one body).
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
}

/** The bytes of a zip holding the entries, in order. */
export function zipBytes(entries: readonly ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  const offsets = new Map<string, { offset: number; header: CentralFields }>();
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const shared = entry.sharesBodyOf === undefined ? undefined : offsets.get(entry.sharesBodyOf);
    let fields: CentralFields;
    let at: number;
    if (shared) {
      fields = { ...shared.header, size: entry.declaredSize ?? shared.header.size };
      at = shared.offset;
    } else {
      const raw = Buffer.from(entry.data);
      const body = entry.store ? raw : deflateRawSync(raw);
      fields = {
        method: entry.store ? 0 : 8,
        crc: entry.crc ?? crc32(raw),
        compressed: body.length,
        size: entry.declaredSize ?? raw.length,
      };
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(0x0800, 6); // names are UTF-8
      local.writeUInt16LE(fields.method, 8);
      local.writeUInt32LE(fields.crc, 14);
      local.writeUInt32LE(fields.compressed, 18);
      local.writeUInt32LE(fields.size, 22);
      local.writeUInt16LE(name.length, 26);
      locals.push(local, name, body);
      at = offset;
      offsets.set(entry.name, { offset, header: fields });
      offset += local.length + name.length + body.length;
    }
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(0x0800, 8);
    record.writeUInt16LE(fields.method, 10);
    record.writeUInt32LE(fields.crc, 16);
    record.writeUInt32LE(fields.compressed, 20);
    record.writeUInt32LE(fields.size, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(at, 42);
    central.push(record, name);
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

interface CentralFields {
  readonly method: number;
  readonly crc: number;
  readonly compressed: number;
  readonly size: number;
}
