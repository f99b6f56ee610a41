// records.follow: the change stream as an async iterator that resumes by itself, against a server whose
// snapshot the test swaps and which the test makes end every stream (as a stopping server does).
import { CveRecordsClient, type FollowedChange } from '@public-cve-records/sdk';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogFile } from '../../src/contract/index.js';
import { createCursorCodec } from '../../src/core/cursor.js';
import { createSnapshot } from '../../src/core/snapshot.js';
import { SnapshotStore } from '../../src/core/snapshot-store.js';
import { buildServer } from '../../src/http/server.js';
import { fixtureCatalog, testConfig } from '../support/app.js';

let app: FastifyInstance;
let store: SnapshotStore;
let client: CveRecordsClient;
let catalog: CatalogFile = fixtureCatalog;

beforeAll(async () => {
  store = new SnapshotStore(createSnapshot(catalog));
  const config = testConfig({ compression: false });
  app = await buildServer({ config, store, cursors: createCursorCodec(config.cursorSecret) });
  client = new CveRecordsClient({ baseUrl: await app.listen({ host: '127.0.0.1', port: 0 }) });
});
afterAll(() => app.close());

function land(id: string, project: string, modified: string): void {
  catalog = {
    ...catalog,
    records: [...catalog.records, { id, project, status: 'public', url: `https://www.cve.org/CVERecord?id=${id}`, modified }],
  };
  store.replace(createSnapshot(catalog));
}

describe('SDK: records.follow', () => {
  it('yields changes as they land, resumes by itself after the stream ends, and resumes from `next` later', async () => {
    const seen: FollowedChange[] = [];
    const abort = new AbortController();
    const following = (async () => {
      for await (const followed of client.records.follow({ project: 'curl' }, { signal: abort.signal })) {
        seen.push(followed);
        if (seen.length === 3) break;
      }
    })();
    const until = async (check: () => boolean) => {
      for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(check()).toBe(true);
    };
    await new Promise((resolve) => setTimeout(resolve, 300));
    land('CVE-2026-1001', 'curl', '2026-05-01T00:00:00Z');
    land('CVE-2026-1002', 'zlib', '2026-05-02T00:00:00Z');
    await until(() => seen.length === 1);
    // Every stream ends, as when the service stops; what lands meanwhile arrives after the reconnection.
    app.drain();
    land('CVE-2026-1003', 'curl', '2026-05-03T00:00:00Z');
    land('CVE-2026-1004', 'curl', '2026-05-04T00:00:00Z');
    await following;
    expect(seen.map((followed) => followed.change.id)).toEqual(['CVE-2026-1001', 'CVE-2026-1003', 'CVE-2026-1004']);
    // A later run resumes right after a change it kept.
    const later: string[] = [];
    for await (const { change } of client.records.follow({ since: seen[0]!.next, project: 'curl' })) {
      later.push(change.id);
      if (later.length === 2) break;
    }
    expect(later).toEqual(['CVE-2026-1003', 'CVE-2026-1004']);
  });

  it('rejects a forged `since` with status 400', async () => {
    const error = await client.records
      .follow({ since: 'forged' })
      .next()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, code: 'invalid_cursor' });
  });
});
