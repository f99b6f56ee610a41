// Reads a snapshot file (core/snapshot-format.ts): the columns into memory in a few reads, the search index
// when the search is first built (in steps between requests, after a server's first answers: it is most of
// the bytes before the texts), the summaries and details from the file when a request needs one
// (core/text-file.ts). A snapshot replaced by a reload (a new file renamed over the old one) keeps reading
// its own bytes. Every part is checked before it is used: a damaged column refuses the file, a damaged
// search index is not used (a warning says so) and the index is built from the texts instead.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { sumHashes } from '../../core/content-hash.js';
import type { TextIndexData } from '../../core/search/text-index.js';
import { assembleSnapshot, type Snapshot } from '../../core/snapshot.js';
import {
  decodeHeader,
  decodeSnapshot,
  decodeTextIndex,
  indexRange,
  PREAMBLE_BYTES,
  SnapshotFormatError,
  type SnapshotHeader,
} from '../../core/snapshot-format.js';
import { TextFile } from '../../core/text-file.js';
import { CatalogError } from '../json/catalog-file.js';

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

/**
 * A checkpoint of the store `storeId` (a snapshot file naming it and the sequence it holds), or undefined
 * when the file is missing or of another store. A damaged file is a CatalogError, as any snapshot file's.
 */
export function openCheckpoint(path: string, storeId: string): Snapshot | undefined {
  if (!isSnapshotFile(path)) return undefined;
  const snapshot = openSnapshotFile(path);
  return snapshotStores.get(snapshot)?.id === storeId ? snapshot : undefined;
}

/** Which store each checkpoint opened is of. */
const snapshotStores = new WeakMap<Snapshot, NonNullable<SnapshotHeader['store']>>();

export function openSnapshotFile(path: string): Snapshot {
  const file = new TextFile(openSync(path, 'r'));
  const { fd } = file;
  try {
    const { size } = fstatSync(fd);
    const preamble = readExactly(fd, PREAMBLE_BYTES, 0, path);
    const header = decodeHeader(Buffer.concat([preamble, readExactly(fd, preamble.readUInt32LE(12), PREAMBLE_BYTES, path)]));
    const bodyOffset = header.sections[0]?.offset ?? header.text.offset;
    if (header.text.offset + header.text.length > size) throw new SnapshotFormatError('snapshot file is cut short');
    // The bytes before the search index and after it (the content hashes), not the index.
    const index = indexRange(header);
    const indexEnd = index.offset + index.length;
    const content = decodeSnapshot(header, [
      { bytes: readExactly(fd, index.offset - bodyOffset, bodyOffset, path), offset: bodyOffset },
      { bytes: readExactly(fd, header.text.offset - indexEnd, indexEnd, path), offset: indexEnd },
    ]);
    const texts = file.texts(header.text.offset, content.summaries, content.details);
    const snapshot = assembleSnapshot({
      version: header.version,
      lastVerified: header.lastVerified,
      table: content.table,
      texts,
      aliases: content.aliases,
      textIndex: () => indexSteps(file, path, header, index),
      removed: content.removed,
      sequence: header.store?.sequence,
      hashes: content.hashes && { column: content.hashes, sum: sumHashes(0n, content.hashes) },
    });
    if (header.store) snapshotStores.set(snapshot, header.store);
    // The file stays open while any snapshot reads these texts: this one, or one a change made from it.
    file.closeWith(texts);
    return snapshot;
  } catch (error) {
    file.close();
    if (error instanceof SnapshotFormatError || error instanceof SyntaxError) {
      throw new CatalogError(path, [{ pointer: '/', id: undefined, problem: `not a readable snapshot: ${error.message}` }]);
    }
    throw error;
  }
}

/** Bytes read at a time of the search index, with the event loop given back between reads. */
const INDEX_READ_BYTES = 16 * 1024 * 1024;

/**
 * The search index's sections, read and checked in steps; undefined when they cannot be used (a warning
 * names the file and why), so that the index is built from the texts, which were checked at the open.
 */
function* indexSteps(
  file: TextFile,
  path: string,
  header: SnapshotHeader,
  range: ReturnType<typeof indexRange>,
): Generator<void, TextIndexData | undefined, void> {
  try {
    const bytes = Buffer.allocUnsafeSlow(range.length);
    for (let done = 0; done < range.length; yield) {
      const read = readSync(file.fd, bytes, done, Math.min(INDEX_READ_BYTES, range.length - done), range.offset + done);
      if (read === 0) throw new SnapshotFormatError('search index is cut short');
      done += read;
    }
    return decodeTextIndex(header, { bytes, offset: range.offset });
  } catch (error) {
    if (!(error instanceof SnapshotFormatError || error instanceof SyntaxError)) throw error;
    process.emitWarning(`${path}: search index not used (${error.message}); it is built from the texts instead`);
    return undefined;
  }
}

/**
 * `length` bytes at `position`, in a buffer of its own (so typed arrays can view it, aligned), not filled
 * with zeros first: every byte is read into it or the read fails (a checkpoint's body is a hundred MB).
 */
function readExactly(fd: number, length: number, position: number, path: string): Buffer {
  const buffer = Buffer.allocUnsafeSlow(length);
  let done = 0;
  while (done < length) {
    const read = readSync(fd, buffer, done, length - done, position + done);
    if (read === 0) throw new SnapshotFormatError(`${path} ends before its header says`);
    done += read;
  }
  return buffer;
}
