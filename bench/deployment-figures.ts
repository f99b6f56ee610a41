// `npx tsx bench/run.ts deployment`: the deployment test's harness (test/support/deployment) at the corpus's
// size: 340,000 records on three replicas behind HAProxy, Redis away for 30 s, a replica's link to
// PostgreSQL cut for 30 s, a 20,000-record delta the sync is killed in, under 16 clients of checked reads.
// Prints a Markdown table for docs/OPERATIONS.md. Sizes can be lowered to try it (BENCH_DEPLOYMENT_RECORDS,
// BENCH_DEPLOYMENT_OUTAGE_S). Upstream publishes a delta an hour and the documented sync polls every 300 s;
// the bench publishes a 200-record delta every BENCH_DEPLOYMENT_DELTA_S seconds (30 by default: one lands
// in every 30 s outage). At 5 s, three replicas applying every delta at this size saturate two cores, and
// what is then measured is the saturation (docs/OPERATIONS.md has that run too).
import { loadavg } from 'node:os';
import { Deployment } from '../test/support/deployment/deployment.js';
import {
  cutReplicaLink,
  type FaultFigures,
  type FaultOptions,
  killReplica,
  killSync,
  restartPostgres,
  startPublishing,
  stopRedis,
} from '../test/support/deployment/faults.js';
import { startLoad } from '../test/support/deployment/load.js';
import { memoryMb, table } from './support.js';

const RECORDS = Number(process.env.BENCH_DEPLOYMENT_RECORDS ?? 340_000);
const OUTAGE_S = Number(process.env.BENCH_DEPLOYMENT_OUTAGE_S ?? 30);
const DELTA_S = Number(process.env.BENCH_DEPLOYMENT_DELTA_S ?? 30);

export async function deploymentSection(): Promise<void> {
  const options: FaultOptions = {
    outageMs: OUTAGE_S * 1000,
    bigDelta: Math.min(20_000, Math.floor(RECORDS / 2)),
    rateLimit: 30,
    recoveryTimeoutMs: 600_000,
  };
  const deployment = new Deployment({ records: RECORDS, rateLimit: options.rateLimit, startMs: 600_000 });
  const figures: FaultFigures[] = [];
  let resident: string[] = [];
  const loadBefore = loadavg()[0]!;
  const started = Date.now();
  await deployment.start();
  const startSeconds = (Date.now() - started) / 1000;
  const publishing = startPublishing(deployment, DELTA_S * 1000, 200);
  const load = startLoad(deployment.proxyUrl, deployment.dataset, 16);
  try {
    figures.push(await killReplica(deployment, load, options));
    figures.push(await stopRedis(deployment, load, options));
    figures.push(await restartPostgres(deployment, load, options));
    figures.push(await killSync(deployment, load, options, publishing));
    figures.push(await cutReplicaLink(deployment, load, options));
    resident = deployment.replicas.map((replica) => `${replica.name} ${Math.round(memoryMb(replica.process.child.pid!, 'VmRSS'))} MB`);
  } finally {
    publishing.stop();
    await load.stop();
    await deployment.stop();
  }
  console.log(
    `\n### A deployment losing one part at a time (${RECORDS.toLocaleString('en')} records, 3 replicas behind HAProxy, 16 clients, a 200-record delta every ${DELTA_S} s; the whole deployment started in ${startSeconds.toFixed(0)} s)\n`,
  );
  console.log(
    `Load average before the start: ${loadBefore.toFixed(2)}; at the end: ${loadavg()[0]!.toFixed(2)}. Replicas' RSS after the last fault: ${resident.join(', ')}.\n`,
  );
  console.log(
    table(
      figures.map((f) => ({
        fault: f.fault,
        requests: f.requests,
        failed: f.failed,
        wrong: f.wrong,
        'recovery (s)': f.recoverySeconds,
        notes: [...f.notes, ...f.failures.map((why) => `failed: ${why}`), ...f.wrongs.map((why) => `wrong: ${why}`)].join('; '),
      })),
    ),
  );
}
