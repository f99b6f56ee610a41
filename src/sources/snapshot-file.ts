// Reads a snapshot file (core/snapshot-format.ts): the columns and the search index into memory in a few
// reads, the summaries from the file when a request needs one. The file stays open for as long as its
// snapshot is alive, so a snapshot replaced by a reload (a new file renamed over the old one) keeps
// reading its own bytes until the last request on it is done; it is closed when the snapshot is collected.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { assembleSnapshot, type Snapshot } from '../core/snapshot.js';
import { decodeHeader, decodeSnapshot, PREAMBLE_BYTES, SnapshotFormatError } from '../core/snapshot-format.js';
import { type RegionReader, type TextColumn, type TextStore, textAt } from '../core/text-store.js';
import { CatalogError } from './catalog-file.js';

const closeWhenCollected = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
});

/** Whether a file starts like a snapshot file (the importer's `.snapshot` output). */
export function isSnapshotFile(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const magic = Buffer.alloc(8);
    return readSync(fd, magic, 0, 8, 0) === 8 && magic.toString('latin1') === 'CVERSNAP';
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function openSnapshotFile(path: string): Snapshot {
  const fd = openSync(path, 'r');
  try {
    const { size } = fstatSync(fd);
    const preamble = readExactly(fd, PREAMBLE_BYTES, 0, path);
    const header = decodeHeader(Buffer.concat([preamble, readExactly(fd, preamble.readUInt32LE(12), PREAMBLE_BYTES, path)]));
    const bodyOffset = header.sections[0]?.offset ?? header.text.offset;
    if (header.text.offset + header.text.length > size) throw new SnapshotFormatError('snapshot file is cut short');
    const body = readExactly(fd, header.text.offset - bodyOffset, bodyOffset, path);
    const content = decodeSnapshot(header, body, bodyOffset);
    const texts = fileTexts(fd, header.text.offset, content.summaries, content.details);
    const snapshot = assembleSnapshot({
      version: header.version,
      lastVerified: header.lastVerified,
      table: content.table,
      texts,
      aliases: content.aliases,
      textIndex: content.textIndex,
      removed: content.removed,
    });
    closeWhenCollected.register(snapshot, fd);
    return snapshot;
  } catch (error) {
    closeSync(fd);
    if (error instanceof SnapshotFormatError || error instanceof SyntaxError) {
      throw new CatalogError(path, [{ pointer: '/', id: undefined, problem: `not a readable snapshot: ${error.message}` }]);
    }
    throw error;
  }
}

/** `length` bytes at `position`, in a buffer of its own (so typed arrays can view it, aligned). */
function readExactly(fd: number, length: number, position: number, path: string): Buffer {
  const buffer = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const read = readSync(fd, buffer, done, length - done, position + done);
    if (read === 0) throw new SnapshotFormatError(`${path} ends before its header says`);
    done += read;
  }
  return buffer;
}

/** Summaries and details read from the file's text region on demand (a few microseconds each, from the page cache). */
function fileTexts(fd: number, textOffset: number, summaries: TextColumn, details: TextColumn): TextStore {
  const read: RegionReader = (offset, length) => {
    const buffer = Buffer.allocUnsafe(length);
    readSync(fd, buffer, 0, length, textOffset + offset);
    return buffer.toString('utf8');
  };
  return {
    summary: (position) => textAt(summaries, position, read),
    details: (position) => textAt(details, position, read),
  };
}
