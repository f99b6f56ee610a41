// `npx tsx bench/run.ts streams`: issue 25's last target, changes pushed as they land. A server on the
// SQLite store of record (the corpus, 340,000 records, synced as a midnight baseline) holds 1,000 open change
// streams (GET /api/v1/cve-records/changes/stream, one connection each); a separate `sync` then commits a
// 500-record delta. Measured: the server's resident memory per open stream, and from the step's commit (the
// store's sequence moving, watched here on its own connection) to the first event and to the step's last
// event on every stream. BENCH_STREAM_RECORDS and BENCH_STREAMS make it smaller.
import { mkdtempSync, symlinkSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { buildCorpus } from './corpus.js';
import { memoryMb, runCli, serveCatalog, table, untilLine } from './support.js';
import { deltaRecords, writeDeltaZip } from './sync-figures.js';

const RECORDS = Number(process.env.BENCH_STREAM_RECORDS ?? 340_000);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const DAY = '2026-11-23';
const STREAM_PATH = '/api/v1/cve-records/changes/stream';

interface OpenStream {
  /** When the stream's first change event after `ready` arrived, and its event for the step's last new record. */
  first: number | undefined;
  last: number | undefined;
  close(): void;
}

/** Opens one stream on its own connection; resolves once `ready` has arrived (the catch-up is over). */
function openStream(base: string, lastId: string): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const stream: OpenStream = { first: undefined, last: undefined, close: () => req.destroy() };
    let ready = false;
    let text = '';
    const req = request(`${base}${STREAM_PATH}`, { agent: false, headers: { accept: 'text/event-stream' } }, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`stream answered ${response.statusCode}`));
        return;
      }
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const now = performance.now();
        if (!ready) {
          text += chunk;
          if (text.includes('event: ready')) {
            ready = true;
            text = '';
            resolve(stream);
          }
          return;
        }
        if (stream.first === undefined && chunk.includes('data: ')) stream.first = now;
        // The previous chunk's tail is kept: the last id can be cut across two chunks.
        const seen = text + chunk;
        if (stream.last === undefined && seen.includes(lastId)) stream.last = now;
        text = seen.slice(-200);
      });
      response.on('error', () => {});
    });
    req.on('error', reject);
    req.end();
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

export async function streamSection(): Promise<void> {
  const corpus = await buildCorpus(RECORDS, (line) => console.error(line));
  const upstream = mkdtempSync(join(tmpdir(), 'bench-upstream-'));
  symlinkSync(corpus.path, join(upstream, `${DAY}_all_CVEs_at_midnight.zip.zip`));
  const store = join(mkdtempSync(join(tmpdir(), 'bench-state-')), 'records.db');
  const sync = ['sync', upstream, '--catalog', store];
  await runCli(sync);

  const server = await serveCatalog(store, ['--streams-per-address', String(STREAMS + 10)]);
  // Settled first (the search index built, first answers given, memory at rest), so that what the streams
  // add is what is measured. The index is built after listening: at 340,000 records it took 7 to 13 s, so
  // it was still being built when `before` was read, and its 100 MB were counted as the streams' (126 KB a
  // stream; docs/PERFORMANCE.md, "Issue 25: what an open change stream costs"). The change feed's order is
  // built on its first use, at 340,000 records some hundred megabytes once.
  await untilLine(server, /search index ready/);
  await fetch(`${server.url}/api/v1/cve-records?limit=20`);
  await fetch(`${server.url}/api/v1/cve-records/changes?limit=1`);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const rssBefore = memoryMb(server.child.pid!, 'VmRSS');

  const delta = await deltaRecords(1);
  const lastId = /deltaCves\/(CVE-[\d-]+)\.json/.exec(delta.at(-1)!.name)![1]!;
  const streams: OpenStream[] = [];
  // In groups, as clients arrive: a thousand connections at once would only measure the accept queue.
  for (let opened = 0; opened < STREAMS; opened += 50) {
    streams.push(...(await Promise.all(Array.from({ length: Math.min(50, STREAMS - opened) }, () => openStream(server.url, lastId)))));
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const rssOpen = memoryMb(server.child.pid!, 'VmRSS');

  // The commit is the moment the store's sequence moves: watched on a connection of this process.
  const watch = new DatabaseSync(store, { readOnly: true });
  const sequence = () => (watch.prepare('SELECT seq FROM cve_catalog').get() as { seq: number }).seq;
  const before = sequence();
  writeDeltaZip(upstream, 1, delta);
  let committed: number | undefined;
  const watching = setInterval(() => {
    if (committed === undefined && sequence() !== before) committed = performance.now();
  }, 2);
  const step = await runCli(sync);
  const deadline = performance.now() + 30_000;
  while (streams.some((s) => s.last === undefined) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  clearInterval(watching);
  watch.close();
  const rssAfter = memoryMb(server.child.pid!, 'VmRSS');
  for (const stream of streams) stream.close();
  await server.stop();
  if (committed === undefined) throw new Error(`the delta's commit was not seen:\n${step.stdout}`);

  const reached = streams.filter((s) => s.first !== undefined && s.last !== undefined);
  const first = reached.map((s) => s.first! - committed!);
  const last = reached.map((s) => s.last! - committed!);
  const perStreamKb = ((rssOpen - rssBefore) * 1024) / STREAMS;
  console.log(
    `\n### Change streams: ${STREAMS.toLocaleString('en')} open on one server of ${RECORDS.toLocaleString('en')} records (issue 25)\n`,
  );
  console.log(step.stdout.trim().split('\n').at(-1));
  console.log(
    table([
      { measure: 'streams that received the step (its first and its last event)', value: `${reached.length} of ${STREAMS}`, target: 'all' },
      {
        measure: 'from the commit to the first event, p50 / slowest stream (ms)',
        value: `${percentile(first, 50).toFixed(0)} / ${Math.max(...first).toFixed(0)}`,
        target: '<= 1000',
      },
      {
        measure: "from the commit to the step's last event (500 changes), p50 / slowest stream (ms)",
        value: `${percentile(last, 50).toFixed(0)} / ${Math.max(...last).toFixed(0)}`,
        target: '',
      },
      {
        measure: 'server RSS per open stream (KB; VmRSS with the streams open minus before, over their number)',
        value: perStreamKb.toFixed(1),
        target: '<= 20',
      },
      {
        measure: 'server RSS: before, streams open, after the step (MB)',
        value: `${rssBefore.toFixed(0)} / ${rssOpen.toFixed(0)} / ${rssAfter.toFixed(0)}`,
        target: '',
      },
    ]),
  );
}
