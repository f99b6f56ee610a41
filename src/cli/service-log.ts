// Where the service's log goes. On a terminal, people read it: pino-pretty lines (time, level, message,
// then the fields). Anywhere else (a pipe, a file, a log collector) it is one JSON object a line.
import type { Writable } from 'node:stream';
import { pino } from 'pino';
import pretty from 'pino-pretty';

export interface ServiceLog {
  readonly logger: pino.Logger;
  /** Writes what is buffered; `done` is called when it is written. */
  flush(done?: () => void): void;
}

export function serviceLog(level: string, out: Writable & { isTTY?: boolean; fd?: number } = process.stdout): ServiceLog {
  if (out.isTTY) {
    const stream = pretty({ destination: out, colorize: true, sync: true, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss.l' });
    return { logger: pino({ level }, stream), flush: (done) => done?.() };
  }
  // Buffered, asynchronous writes: one syscall per 4 KiB of log instead of one per request line. The
  // buffer is flushed at least once a second (by serve), so a quiet server's lines do not wait for
  // traffic, and when the server closes. Lines are written as bytes into one large buffer as they come
  // (LineChunks) and handed to the destination 4 KiB at a time, not a Buffer made per line and the
  // destination's lists of them joined again for each write (about 140 bytes a request fewer allocated,
  // docs/PERFORMANCE.md, "Hot path, stop 39"). (Buffering strings instead, the destination measured the
  // UTF-8 length of all it held at every line, issue 29.)
  const destination = pino.destination({ dest: out.fd ?? 1, sync: false, minLength: HAND_OVER_BYTES, contentMode: 'buffer' });
  const lines = new LineChunks((bytes) => destination.write(bytes as unknown as string));
  return {
    logger: pino({ level }, lines),
    flush: (done) => {
      lines.handOver();
      destination.flush(done ? () => done() : undefined);
    },
  };
}

/** What the destination is given at once, at least (its own minimum, so that it writes what it is given). */
const HAND_OVER_BYTES = 4096;
/** The buffer lines are written into: a new one when it is full (the destination may still hold the old one's bytes). */
const CHUNK_BYTES = 64 * 1024;

/**
 * Log lines written as UTF-8 into one buffer, at its end, and handed over as views of it (never written
 * again: the destination writes them later) once HAND_OVER_BYTES have gathered, or when flushed.
 */
export class LineChunks {
  #chunk = Buffer.allocUnsafeSlow(CHUNK_BYTES);
  /** The first byte not yet handed over. */
  #start = 0;
  #end = 0;

  constructor(private readonly handTo: (bytes: Buffer) => unknown) {}

  write(line: string): void {
    // At most 3 bytes of UTF-8 for each UTF-16 unit.
    if (this.#end + line.length * 3 > this.#chunk.length) {
      this.handOver();
      this.#chunk = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, line.length * 3));
      this.#start = 0;
      this.#end = 0;
    }
    this.#end += this.#chunk.write(line, this.#end);
    if (this.#end - this.#start >= HAND_OVER_BYTES) this.handOver();
  }

  /** What has gathered, handed over now. */
  handOver(): void {
    if (this.#end === this.#start) return;
    this.handTo(this.#chunk.subarray(this.#start, this.#end));
    this.#start = this.#end;
  }
}
