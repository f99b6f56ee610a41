// Issue 5, live reload: a valid new catalog file is served within moments (ETags follow, old cursors keep
// working), an invalid one is refused while the old snapshot keeps serving, SIGHUP reloads, and reloads
// under load fail no request.
import { mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogJson, writeCatalogFile } from '../../src/catalog/json/catalog-writer.js';
import type { CatalogFile } from '../../src/contract/index.js';
import { fixtureCatalog } from '../support/app.js';
import { type Running, startServer } from '../support/cli.js';

let file: string;
let server: Running;

/** Replaces the file the way deploy tools do: write elsewhere, rename over. */
async function publish(catalog: CatalogFile | string): Promise<void> {
  const tmp = `${file}.next`;
  await writeFile(tmp, typeof catalog === 'string' ? catalog : catalogJson(catalog));
  await rename(tmp, file);
}

async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const get = (path: string) => fetch(`${server.baseUrl}${path}`);
const extra = (id: string) => ({ id, project: 'reloaded', status: 'public' as const, url: `https://www.cve.org/CVERecord?id=${id}` });

beforeAll(async () => {
  file = join(await mkdtemp(join(tmpdir(), 'reload-')), 'catalog.json');
  await writeFile(file, catalogJson(fixtureCatalog));
  server = await startServer(['--records', file, '--rate-limit-max', '0']);
});
afterAll(() => server.stop());

describe('live reload of the catalog file', () => {
  it('serves a valid new file; ETags follow the new version; a cursor from the old version keeps working', async () => {
    const firstPage = (await (await get('/api/v1/cve-records?limit=2')).json()) as { pagination: { nextCursor: string } };
    const etagBefore = (await get('/api/v1/cve-records')).headers.get('etag');
    await publish({ ...fixtureCatalog, records: [...fixtureCatalog.records, extra('CVE-2026-0001')] });
    await until(async () => (await get('/api/v1/cve-records/CVE-2026-0001')).status === 200);
    expect((await get('/api/v1/cve-records')).headers.get('etag')).not.toBe(etagBefore);
    const next = await get(`/api/v1/cve-records?limit=2&cursor=${firstPage.pagination.nextCursor}`);
    expect(next.status).toBe(200);
    await until(async () => /catalog reloaded: 9 records/.test(server.output())); // logs are flushed each second
  });

  it('refuses an invalid file with a log line and keeps serving the old snapshot', async () => {
    await publish('{"lastVerified":"2025-01-24","records":[{"id":"CVE-2026-0002","project":"x","status":"maybe","url":null}]}');
    await until(async () => server.output().includes('catalog reload refused'));
    expect(server.output()).toMatch(/status.*must be equal to one of the allowed values/);
    expect((await get('/api/v1/cve-records/CVE-2026-0001')).status).toBe(200);
    // Not a fixed wait: the refusal of the second file is itself logged, and only then is the check made.
    const refusals = () => server.output().split('catalog reload refused').length - 1;
    const refusedBefore = refusals();
    await publish('{ not json');
    await until(async () => refusals() > refusedBefore);
    expect(server.output()).toMatch(/not valid JSON/);
    expect((await get('/api/v1/cve-records/CVE-2026-0001')).status).toBe(200);
  });

  it('reloads on SIGHUP', async () => {
    await publish({ ...fixtureCatalog, records: [...fixtureCatalog.records, extra('CVE-2026-0003')] });
    server.child.kill('SIGHUP');
    await until(async () => (await get('/api/v1/cve-records/CVE-2026-0003')).status === 200);
    server.child.kill('SIGHUP');
    await until(async () => server.output().includes('catalog unchanged'));
  });

  it('fails no request while reloading under load', async () => {
    let stop = false;
    const statuses: number[] = [];
    const load = Array.from({ length: 4 }, async () => {
      while (!stop) {
        const response = await get('/api/v1/cve-records?limit=100');
        statuses.push(response.status);
        await response.arrayBuffer();
      }
    });
    for (let i = 0; i < 5; i++) {
      await publish({ ...fixtureCatalog, records: [...fixtureCatalog.records, extra(`CVE-2026-01${i}0`)] });
      await until(async () => (await get(`/api/v1/cve-records/CVE-2026-01${i}0`)).status === 200);
    }
    stop = true;
    await Promise.all(load);
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.every((status) => status === 200)).toBe(true);
  });
});

describe('live reload of a snapshot file', () => {
  it('serves a new snapshot renamed over the old one, and refuses a damaged one while serving the last good one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reload-snapshot-'));
    const path = join(dir, 'records.snapshot');
    await writeCatalogFile(path, fixtureCatalog);
    const running = await startServer(['--records', path, '--rate-limit-max', '0']);
    try {
      const at = (id: string) => fetch(`${running.baseUrl}/api/v1/cve-records/${id}`);
      expect((await at('CVE-2024-50000')).status).toBe(200);
      await writeCatalogFile(join(dir, 'next.snapshot'), {
        ...fixtureCatalog,
        records: [...fixtureCatalog.records, extra('CVE-2026-0004')],
      });
      await rename(join(dir, 'next.snapshot'), path);
      await until(async () => (await at('CVE-2026-0004')).status === 200);
      const found = (await (await fetch(`${running.baseUrl}/ask?query=reloaded`)).json()) as { results: { url: string }[] };
      expect(found.results.map((result) => result.url)).toContain('https://www.cve.org/CVERecord?id=CVE-2026-0004');

      const good = await readFile(path);
      await writeFile(join(dir, 'cut.snapshot'), good.subarray(0, good.length - 10));
      await rename(join(dir, 'cut.snapshot'), path);
      await until(async () => running.output().includes('catalog reload refused'));
      expect(running.output()).toMatch(/not a readable snapshot/);
      expect((await at('CVE-2026-0004')).status).toBe(200);
    } finally {
      await running.stop();
    }
  });
});
