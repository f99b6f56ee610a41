// `npm run bench sync`: the living-data targets of issue 14 at the corpus size. A 340,000-record baseline is
// synced into a catalog and served from its snapshot; then, under load, a 500-record delta (250 changed
// records, 250 new) is synced and the server reloads: the time until the new records are served, the server's
// memory before and after, and every failed answer meanwhile. Then staleness with `sync --follow`, and what a
// client's full copy costs (the export, then the change feed).

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { readZipEntries, unpackText } from '../src/import/zip-entries.js';
import { zipBytes } from '../test/support/zip-writer.js';
import { buildCorpus, SAMPLE_ZIP } from './corpus.js';
import { BIN, memoryMb, runCli, serveCatalog, table } from './support.js';

const RECORDS = 340_000;
const DAY = '2026-11-23';

/** 500 records in a delta's shape: 250 of the corpus's own ids changed, 250 new ids. */
async function deltaRecords(hour: number): Promise<{ name: string; data: string }[]> {
  const entries: { name: string; data: string }[] = [];
  const updated = `${DAY}T${String(hour).padStart(2, '0')}:10:00.000Z`;
  for await (const entry of readZipEntries(SAMPLE_ZIP)) {
    if (!('packed' in entry)) continue;
    const text = unpackText(entry.packed);
    const id = /"cveId"\s*:\s*"(CVE-\d{4}-\d+)"/.exec(text)?.[1];
    if (!id || !/"state"\s*:\s*"PUBLISHED"/.test(text)) continue;
    const stamped = text.replace(/"dateUpdated"\s*:\s*"[^"]*"/g, `"dateUpdated": "${updated}"`);
    const n = entries.length;
    if (n < 250)
      entries.push({ name: `deltaCves/${id}.json`, data: stamped.replace('"descriptions"', '"x_benchChanged": true, "descriptions"') });
    else {
      const fresh = `CVE-2026-${900_000 + hour * 1000 + n}`;
      entries.push({ name: `deltaCves/${fresh}.json`, data: stamped.replaceAll(id, fresh) });
    }
    if (entries.length === 500) break;
  }
  return entries;
}

function writeDeltaZip(dir: string, hour: number, entries: { name: string; data: string }[]): string {
  const name = `${DAY}_delta_CVEs_at_${String(hour).padStart(2, '0')}00Z.zip`;
  writeFileSync(join(dir, name), zipBytes(entries));
  return name;
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return performance.now() - started;
}

export async function syncSection(seconds: number): Promise<void> {
  const corpus = await buildCorpus(RECORDS, (line) => console.error(line));
  const upstream = mkdtempSync(join(tmpdir(), 'bench-upstream-'));
  symlinkSync(corpus.path, join(upstream, `${DAY}_all_CVEs_at_midnight.zip.zip`));
  const state = mkdtempSync(join(tmpdir(), 'bench-state-'));
  mkdirSync(state, { recursive: true });
  const args = ['sync', upstream, '--catalog', join(state, 'catalog.json.gz'), '--out', join(state, 'served.snapshot')];
  const baseline = await runCli(args);

  const server = await serveCatalog(join(state, 'served.snapshot'));
  const servedNew = (id: string) => async () => (await fetch(`${server.url}/api/v1/cve-records/${id}`)).status === 200;
  // Let the server settle (search index built, first answers given) before measuring its memory.
  await fetch(`${server.url}/ask?query=linux`);
  const rssBefore = memoryMb(server.child.pid!, 'VmRSS');

  // The delta, synced and reloaded while autocannon keeps the server busy with get-one and list requests.
  const delta = await deltaRecords(1);
  const newId = /deltaCves\/(CVE-[\d-]+)\.json/.exec(delta.at(-1)!.name)![1]!;
  writeDeltaZip(upstream, 1, delta);
  const loading = autocannon({
    url: server.url,
    connections: 16,
    duration: Math.max(seconds, 15),
    requests: [{ path: '/api/v1/cve-records/CVE-2025-24530' }, { path: '/api/v1/cve-records?limit=20' }],
  });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const started = performance.now();
  const step = await runCli(args);
  const syncMs = performance.now() - started;
  const servedMs = syncMs + (await until(servedNew(newId), 30_000));
  const result = await loading;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const rssAfter = memoryMb(server.child.pid!, 'VmRSS');
  const hwm = memoryMb(server.child.pid!, 'VmHWM');

  // Staleness: sync --follow polling every 10 s; a delta published at a random moment of the interval.
  const interval = 10;
  const follower = spawn(process.execPath, [BIN, ...args, '--follow', '--interval', String(interval)], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 3000 + Math.random() * interval * 1000));
  const second = await deltaRecords(2);
  writeDeltaZip(upstream, 2, second);
  const staleMs = await until(servedNew(/deltaCves\/(CVE-[\d-]+)\.json/.exec(second.at(-1)!.name)![1]!), 120_000);
  follower.kill('SIGTERM');

  // A client's full copy: the export (one request), then the change feed from the newest time it holds.
  let requests = 0;
  const copyStarted = performance.now();
  const exported = await fetch(`${server.url}/api/v1/cve-records/export`, { headers: { 'accept-encoding': 'gzip' } });
  requests++;
  const lines = (await exported.text())
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { id: string; modified?: string });
  const newest = lines.reduce((max, line) => (line.modified && line.modified > max ? line.modified : max), '');
  let since = newest;
  let caughtUp = false;
  while (!caughtUp) {
    const page = (await (await fetch(`${server.url}/api/v1/cve-records/changes?limit=1000&since=${encodeURIComponent(since)}`)).json()) as {
      pagination: { next: string; hasMore: boolean };
    };
    requests++;
    since = page.pagination.next;
    caughtUp = !page.pagination.hasMore;
  }
  const copyMs = performance.now() - copyStarted;
  await server.stop();

  console.log(`\n### Living data at ${RECORDS.toLocaleString('en')} records (issue 14)\n`);
  console.log(
    `First sync (the baseline, ${RECORDS.toLocaleString('en')} records): ${baseline.seconds.toFixed(1)} s, peak ${Math.round(baseline.peakMb)} MB.`,
  );
  console.log(step.stdout.trim().split('\n').at(-1));
  console.log(
    table([
      {
        measure: 'a 500-record delta applied to the live service (sync step + reload), under load',
        value: `${(servedMs / 1000).toFixed(2)} s (sync ${(syncMs / 1000).toFixed(2)} s)`,
        target: '<= 1 s',
        met: servedMs <= 1000 ? 'yes' : 'NO',
      },
      {
        measure: 'server RSS growth after the reload',
        value: `${Math.round(rssBefore)} -> ${Math.round(rssAfter)} MB (${(((rssAfter - rssBefore) / rssBefore) * 100).toFixed(1)}%), peak ${Math.round(hwm)} MB`,
        target: '<= 10%',
        met: rssAfter <= rssBefore * 1.1 ? 'yes' : 'NO',
      },
      {
        measure: `failed answers during the sync under load (${result.requests.total} requests)`,
        value: result.non2xx + result.errors,
        target: '0',
        met: result.non2xx + result.errors === 0 ? 'yes' : 'NO',
      },
      {
        measure: `staleness with sync --follow --interval ${interval}`,
        value: `${(staleMs / 1000).toFixed(1)} s`,
        target: `<= ${interval} s (one poll)`,
        met: staleMs <= interval * 1000 ? 'yes' : 'NO',
      },
      {
        measure: `a client's full copy (${lines.length.toLocaleString('en')} records: export, then the change feed)`,
        value: `${requests} requests, ${(copyMs / 1000).toFixed(1)} s`,
        target: '<= 10 requests',
        met: requests <= 10 ? 'yes' : 'NO',
      },
    ]),
  );
}
