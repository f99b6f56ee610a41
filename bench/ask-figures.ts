// The ask section of `npm run bench` (`npx tsx bench/run.ts ask`): the /ask latency target of issue 26
// (p99 <= 10 ms at 340,000 records) alone, without the rest of the corpus section (PostgreSQL, loads,
// reloads). The corpus (bench/corpus.ts, BENCH_CORPUS_SIZE records) imported to a snapshot file and
// served, limiter on; then one warm-up round and BENCH_ASK_ROUNDS rounds (5) of the timed questions (the
// realistic queries and the judged set), one after another over HTTP, as the corpus section sends them.
// The load average is printed before and after: on a shared machine, latency measures the neighbours too,
// while the server's CPU time per question moves little with them.
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCorpus } from './corpus.js';
import { askLatencies, CORPUS_SIZE, firstAnswer } from './corpus-figures.js';
import { memoryMb, runCli, serve, table } from './support.js';

const ROUNDS = Number(process.env.BENCH_ASK_ROUNDS ?? 5);
/** The slowest questions shown under the figures. */
const SHOWN = 8;

export async function askSection(): Promise<void> {
  const corpus = await buildCorpus(CORPUS_SIZE, (line) => console.error(line));
  const dir = await mkdtemp(join(tmpdir(), 'bench-ask-'));
  const snapshot = join(dir, 'corpus.snapshot');
  try {
    const imported = await runCli(['import', corpus.path, '--out', snapshot, '--last-verified', '2026-11-23']);
    const server = await serve(['--records', snapshot]);
    await firstAnswer(server, '/ask?query=openssl', performance.now());
    try {
      await askLatencies(server, 1);
      const loadBefore = loadavg()[0]!;
      const latency = await askLatencies(server, ROUNDS);
      const loadAfter = loadavg()[0]!;
      console.log(
        `\n### /ask at ${corpus.records.toLocaleString('en')} records: ${latency.count} questions one after another over HTTP (${ROUNDS} rounds after one warm-up), load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after\n`,
      );
      console.log(
        table([
          { measure: 'import, snapshot only (s)', value: imported.seconds, target: '' },
          { measure: '/ask p50 (ms)', value: latency.p50, target: '' },
          { measure: '/ask p99 (ms)', value: latency.p99, target: '<= 10' },
          { measure: '/ask slowest (ms)', value: latency.max, target: '' },
          { measure: 'server CPU per question (ms)', value: latency.cpuMs, target: '' },
          { measure: 'resident memory after the questions (MB)', value: memoryMb(server.child.pid!, 'VmRSS'), target: '' },
        ]),
      );
      console.log(`\nThe slowest questions (their slowest time):\n`);
      console.log(table(latency.slowest.slice(0, SHOWN).map(([question, ms]) => ({ question, ms }))));
    } finally {
      await server.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
