// A file a snapshot reads its summaries and details from when a request needs one (a few microseconds
// each, from the page cache): a snapshot file's text region, or the temporary file a PostgreSQL load
// writes. It stays open for as long as its snapshot is alive, so a snapshot replaced by a reload keeps
// reading its own bytes until the last request on it is done; it is closed when the snapshot is collected,
// or earlier by whoever opened it once no request can be reading it (a source closing).
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RegionReader, type TextColumn, type TextStore, textAt } from './text-store.js';

/**
 * Where texts are read to before they are decoded: reads are synchronous and each is decoded into a new
 * string at once, so one buffer serves every read of the process, with no allocation per request.
 */
const scratch = Buffer.allocUnsafe(64 * 1024);

const closeWhenCollected = new FinalizationRegistry<TextFile>((file) => file.close());

export class TextFile {
  #fd: number | undefined;
  readonly #group: Set<TextFile> | undefined;

  /** An open file descriptor, now this object's to close; `group` holds the files of one owner while open. */
  constructor(fd: number, group?: Set<TextFile>) {
    this.#fd = fd;
    this.#group = group;
    group?.add(this);
  }

  /**
   * A new empty file only this process can reach: created under the system's temporary directory and
   * unlinked at once, so nothing is left behind however the process ends; its space is freed on close.
   */
  static temporary(group?: Set<TextFile>): TextFile {
    const path = join(tmpdir(), `cve-records-${randomBytes(12).toString('hex')}.texts`);
    const fd = openSync(path, 'wx+', 0o600);
    unlinkSync(path);
    return new TextFile(fd, group);
  }

  get fd(): number {
    if (this.#fd === undefined) throw new Error('text file already closed');
    return this.#fd;
  }

  /** The UTF-8 text of `length` bytes at `position`. */
  read(position: number, length: number): string {
    const buffer = length <= scratch.length ? scratch : Buffer.allocUnsafe(length);
    readSync(this.fd, buffer, 0, length, position);
    return buffer.toString('utf8', 0, length);
  }

  /** Writes the first `length` bytes of `buffer` at `position`, however many calls the system takes. */
  writeAt(buffer: Buffer, length: number, position: number): void {
    for (let done = 0; done < length; ) done += writeSync(this.fd, buffer, done, length - done, position + done);
  }

  /** Summaries and details laid out in the region of the file that starts at `regionOffset`. */
  texts(regionOffset: number, summaries: TextColumn, details: TextColumn): TextStore {
    const read: RegionReader = (offset, length) => this.read(regionOffset + offset, length);
    return {
      summary: (position) => textAt(summaries, position, read),
      details: (position) => textAt(details, position, read),
    };
  }

  /** Keeps the file open until `owner` is collected (or close() is called). */
  closeWith(owner: object): void {
    closeWhenCollected.register(owner, this, this);
  }

  /** Closes the file now; later calls do nothing, and the descriptor is never closed twice. */
  close(): void {
    const fd = this.#fd;
    if (fd === undefined) return;
    this.#fd = undefined;
    closeWhenCollected.unregister(this);
    this.#group?.delete(this);
    closeSync(fd);
  }
}
