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
  // traffic, and when the server closes.
  const destination = pino.destination({ dest: out.fd ?? 1, sync: false, minLength: 4096 });
  return { logger: pino({ level }, destination), flush: (done) => destination.flush(done ? () => done() : undefined) };
}
