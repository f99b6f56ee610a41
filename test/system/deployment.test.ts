// Issue 28, a deployment that survives losing any one part: three replicas behind HAProxy (deploy/haproxy.cfg),
// one PostgreSQL, Redis for the shared limit, one sync --follow, under a steady load of checked reads; each
// part taken away in turn. At this size in CI; at the corpus's in `npx tsx bench/run.ts deployment`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deployment } from '../support/deployment/deployment.js';
import {
  cutReplicaLink,
  type FaultFigures,
  type FaultOptions,
  killReplica,
  killSync,
  type Publishing,
  restartPostgres,
  startPublishing,
  stopRedis,
} from '../support/deployment/faults.js';
import { type Load, startLoad } from '../support/deployment/load.js';

const OPTIONS: FaultOptions = { outageMs: 8000, bigDelta: 1500, rateLimit: 30, recoveryTimeoutMs: 90_000 };

describe('the deployment, one part lost at a time', () => {
  const deployment = new Deployment({ records: 2000, rateLimit: OPTIONS.rateLimit, startMs: 120_000 });
  let load: Load;
  let publishing: Publishing;
  const figures: FaultFigures[] = [];

  beforeAll(async () => {
    await deployment.start();
    publishing = startPublishing(deployment, 3000, 20);
    load = startLoad(deployment.proxyUrl, deployment.dataset, 4);
  }, 300_000);

  afterAll(async () => {
    publishing?.stop();
    await load?.stop();
    await deployment.stop();
    console.log(JSON.stringify(figures, null, 2));
  }, 60_000);

  const faults = {
    'a replica killed and restarted': () => killReplica(deployment, load, OPTIONS),
    'Redis away': () => stopRedis(deployment, load, OPTIONS),
    'PostgreSQL restarted': () => restartPostgres(deployment, load, OPTIONS),
    'the sync killed mid-step': () => killSync(deployment, load, OPTIONS, publishing),
    "a replica's link to PostgreSQL cut": () => cutReplicaLink(deployment, load, OPTIONS),
  };

  for (const [name, run] of Object.entries(faults)) {
    it(`${name}: no wrong answer, no failed one, whole again`, async () => {
      const result = await run();
      figures.push(result);
      expect(result.requests).toBeGreaterThan(0);
      expect(result.wrongs).toEqual([]);
      expect(result.failures).toEqual([]);
    }, 180_000);
  }
});
