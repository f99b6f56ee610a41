// Issue 16 (item 6): the log is readable on a terminal and JSON everywhere else.
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { LineChunks, serviceLog } from '../../src/cli/service-log.js';

/** A stream that says it is (or is not) a terminal, collecting what is written to it. */
function output(isTTY: boolean): PassThrough & { isTTY: boolean; text(): string } {
  const stream = Object.assign(new PassThrough(), { isTTY });
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk));
  return Object.assign(stream, { text: () => text });
}

describe('the service log', () => {
  it('on a terminal, writes lines for people: level, message and fields, no JSON', async () => {
    const out = output(true);
    const { logger, flush } = serviceLog('info', out);
    logger.info({ status: 200, route: '/api/v1/cve-records' }, 'request');
    await new Promise<void>((resolve) => flush(resolve));
    const line = stripVTControlCharacters(out.text()); // without colours
    expect(line).toMatch(/INFO.*request/);
    expect(line).toMatch(/status: 200/);
    expect(line).toMatch(/route: "\/api\/v1\/cve-records"/);
    expect(line.trimStart().startsWith('{')).toBe(false);
  });

  it('elsewhere (here a file), writes one JSON object a line', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'service-log-')), 'log');
    const fd = openSync(file, 'w');
    const { logger, flush } = serviceLog('info', Object.assign(new PassThrough(), { fd, isTTY: false }));
    logger.info({ status: 200 }, 'request');
    logger.debug('not at the default level');
    await new Promise<void>((resolve) => flush(resolve));
    closeSync(fd);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, msg: 'request', status: 200 });
  });
});

describe('the log buffer (LineChunks)', () => {
  it('hands lines over in order, in pieces of at least 4 KiB, and what is left when flushed; long and multi-byte lines whole', () => {
    const pieces: Buffer[] = [];
    const chunks = new LineChunks((bytes) => pieces.push(Buffer.from(bytes)));
    const written: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const line = `${JSON.stringify({ i, text: i % 7 === 0 ? 'é€😀'.repeat(i % 50) : 'x'.repeat(i % 300) })}\n`;
      written.push(line);
      chunks.write(line);
    }
    const long = `${'y'.repeat(100_000)}€\n`;
    written.push(long);
    chunks.write(long);
    written.push('last\n');
    chunks.write('last\n');
    const before = pieces.length;
    chunks.handOver();
    expect(pieces.length).toBe(before + 1);
    // Smaller pieces only where a 64 KiB buffer was full (its rest handed over before the next one) and at the flush.
    const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
    expect(pieces.filter((piece) => piece.length < 4096).length).toBeLessThanOrEqual(Math.ceil(total / 65536) + 2);
    expect(pieces.length).toBeLessThan(total / 4096 + Math.ceil(total / 65536) + 2);
    expect(Buffer.concat(pieces).toString('utf8')).toBe(written.join(''));
  });
});
