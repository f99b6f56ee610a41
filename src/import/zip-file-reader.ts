// How yauzl reads a zip file here: through windows of the file read synchronously, instead of yauzl's
// default of one asynchronous read (a round trip through libuv's thread pool) per directory record and
// per local header. A release zip of 340,000 records costs a million such reads, which kept an import
// waiting rather than working (0.8 ms per entry, the CPU mostly idle). yauzl still parses and checks
// every structure; only where the bytes come from changes. Entry data is read with `bytes`, in one piece.
import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

/** Large enough that a window holds thousands of directory records or small entries. */
const WINDOW_BYTES = 1 << 20;

interface Window {
  start: number;
  bytes: Buffer;
}

export class ZipFileReader extends yauzl.RandomAccessReader {
  readonly size: number;
  readonly #fd: number;
  // Two windows, because reading entries goes back and forth between the central directory (at the
  // end of the file) and the entries' data (from the start).
  #windows: Window[] = [];
  #closed = false;

  constructor(path: string) {
    super();
    this.#fd = openSync(path, 'r');
    try {
      this.size = fstatSync(this.#fd).size;
    } catch (error) {
      closeSync(this.#fd);
      throw error;
    }
  }

  /** `length` bytes at `position` (fewer at the end of the file). */
  bytes(position: number, length: number): Buffer {
    const end = Math.min(position + length, this.size);
    if (end <= position) return Buffer.alloc(0);
    for (const window of this.#windows) {
      if (position >= window.start && end <= window.start + window.bytes.length) {
        return window.bytes.subarray(position - window.start, end - window.start);
      }
    }
    if (end - position > WINDOW_BYTES / 4) return this.#readFully(position, end - position);
    const window = { start: position, bytes: this.#readFully(position, Math.min(WINDOW_BYTES, this.size - position)) };
    this.#windows = [window, ...this.#windows].slice(0, 2);
    return window.bytes.subarray(0, end - position);
  }

  #readFully(position: number, length: number): Buffer {
    const buffer = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const read = readSync(this.#fd, buffer, done, length - done, position + done);
      if (read === 0) break;
      done += read;
    }
    return buffer.subarray(0, done);
  }

  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (err: Error | null, bytesRead?: number) => void,
  ): void {
    let copied: number;
    try {
      copied = this.bytes(position, length).copy(buffer, offset);
    } catch (error) {
      process.nextTick(callback, error as Error);
      return;
    }
    // Asynchronous as yauzl expects of a read, but without a trip through the thread pool.
    process.nextTick(callback, null, copied);
  }

  /** Large ranges (a zip inside the zip) are streamed from the file rather than read whole. */
  override _readStreamForRange(start: number, end: number): Readable {
    return createReadStream('', { fd: this.#fd, start, end: end - 1, autoClose: false });
  }

  override close(callback: (err: Error | null) => void): void {
    if (!this.#closed) {
      this.#closed = true;
      this.#windows = [];
      try {
        closeSync(this.#fd);
      } catch (error) {
        process.nextTick(callback, error as Error);
        return;
      }
    }
    process.nextTick(callback, null);
  }
}
