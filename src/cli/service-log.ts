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
  // traffic, and when the server closes. The buffer holds bytes, each line converted as it comes: buffering
  // strings, the destination measured the UTF-8 length of all it held at every line (a copy and a count of
  // about 2 KiB per request line, a tenth of a get-one's instructions; docs/PERFORMANCE.md, issue 29).
  const destination = pino.destination({ dest: out.fd ?? 1, sync: false, minLength: 4096, contentMode: 'buffer' });
  const lines = { write: (line: string) => destination.write(Buffer.from(line) as unknown as string) };
  return { logger: pino({ level }, lines), flush: (done) => destination.flush(done ? () => done() : undefined) };
}
