// MCP resources and their subscriptions, with the official clients over a real socket: a 2026-07-28
// client lists the templates, reads a record and a project, listens to some URIs, and is told of exactly
// those that a swap of the served snapshot changed; reading again gives the new record. Per-address and
// per-subscription bounds; a 2025-era client reads but is offered no subscription.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceConfig } from '../../../src/config.js';
import type { CatalogFile, CatalogRecord } from '../../../src/contract/index.js';
import { createCursorCodec } from '../../../src/core/cursor.js';
import { createSnapshot } from '../../../src/core/snapshot.js';
import { SnapshotStore } from '../../../src/core/snapshot-store.js';
import { MAX_SUBSCRIBED_URIS } from '../../../src/http/mcp/subscriptions.js';
import { buildServer } from '../../../src/http/server.js';
import { projectUri, recordUri } from '../../../src/http/shared/resource-uris.js';
import { fixtureCatalog, testConfig } from '../../support/app.js';

/** A project name with every character RFC 6570 encodes and encodeURIComponent does not, a comma and a slash. */
const ODD_PROJECT = "Bob's (HTTP) server*, v2/3!";

interface Served {
  app: FastifyInstance;
  url: URL;
  /** Serves the catalog with these records changed or added, and with these removals. */
  land(records: readonly CatalogRecord[], removed?: CatalogFile['removed']): void;
}

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function serve(config: Partial<ServiceConfig> = {}): Promise<Served> {
  let current: CatalogFile = {
    ...fixtureCatalog,
    records: [...fixtureCatalog.records, record('CVE-2020-0001', ODD_PROJECT, '2020-01-01T00:00:00Z')],
  };
  const store = new SnapshotStore(createSnapshot(current));
  const full = testConfig({ compression: false, ...config });
  const app = await buildServer({ config: full, store, cursors: createCursorCodec(full.cursorSecret) });
  await app.listen({ host: '127.0.0.1', port: 0 });
  closing.push(() => app.close());
  const url = new URL(`http://127.0.0.1:${(app.server.address() as { port: number }).port}/mcp`);
  const land: Served['land'] = (records, removed) => {
    const ids = new Set([...records, ...(removed ?? [])].map((r) => r.id));
    current = {
      ...current,
      records: [...current.records.filter((r) => !ids.has(r.id)), ...records],
      removed: [...(current.removed ?? []), ...(removed ?? [])],
    };
    store.replace(createSnapshot(current));
  };
  return { app, url, land };
}

function record(id: string, project: string, modified: string, extra: Partial<CatalogRecord> = {}): CatalogRecord {
  return { id, project, status: 'public', url: `https://www.cve.org/CVERecord?id=${id}`, modified, ...extra };
}

async function modernClient(url: URL): Promise<Client> {
  const client = new Client({ name: 'subscriber', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(url));
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  closing.push(() => client.close());
  return client;
}

/** The URIs the client is told of, in order. */
function updates(client: Client): string[] {
  const told: string[] = [];
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    told.push(notification.params.uri);
  });
  return told;
}

async function read(client: Client, uri: string): Promise<unknown> {
  const { contents } = await client.readResource({ uri }, { cacheMode: 'bypass' });
  expect(contents).toHaveLength(1);
  expect(contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
  return JSON.parse((contents[0] as { text: string }).text);
}

/** Polls a condition: under load a fixed wait would be too short or too long. */
async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('MCP resources', () => {
  it('offers a record and a project as templates, subscribable by a 2026-07-28 client', async () => {
    const { url } = await serve();
    const client = await modernClient(url);
    expect(client.getServerCapabilities()?.resources).toEqual({ listChanged: false, subscribe: true });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => [t.name, t.uriTemplate])).toEqual([
      ['cve_record', 'cve-records://records/{recordId}'],
      ['cve_project', 'cve-records://projects/{project}'],
    ]);
  });

  it('reads a record as get_cve_record answers it, and a project as list_cve_records does', async () => {
    const { url } = await serve();
    const client = await modernClient(url);
    const got = await client.callTool({ name: 'get_cve_record', arguments: { recordId: 'CVE-2025-9999' } });
    expect(await read(client, 'cve-records://records/CVE-2025-9999')).toEqual(got.structuredContent);
    const listed = await client.callTool({ name: 'list_cve_records', arguments: { project: 'openssl' } });
    expect(await read(client, 'cve-records://projects/openssl')).toEqual(listed.structuredContent);
    expect(projectUri(ODD_PROJECT)).toBe('cve-records://projects/Bob%27s%20%28HTTP%29%20server%2A%2C%20v2%2F3%21');
    expect(await read(client, projectUri(ODD_PROJECT))).toMatchObject({ records: [{ id: 'CVE-2020-0001', project: ODD_PROJECT }] });
    await expect(client.readResource({ uri: 'cve-records://records/CVE-1999-0001' })).rejects.toThrow(/CVE-1999-0001/);
    await expect(client.readResource({ uri: 'cve-records://records/not-an-id' })).rejects.toThrow(/not-an-id/);
  });

  it('tells a subscriber of exactly the followed records and projects a swap changed; a read then gives the new record', async () => {
    const { url, land } = await serve();
    const client = await modernClient(url);
    const told = updates(client);
    const followed = [recordUri('CVE-2025-9999'), projectUri('curl'), projectUri(ODD_PROJECT), recordUri('CVE-2021-44228')];
    const subscription = await client.listen({ resourceSubscriptions: followed });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: followed });

    land([
      record('CVE-2025-9999', 'openssl', '2025-02-01T00:00:00Z', { status: 'assigned-no-public-record', url: null }),
      record('CVE-2024-50000', 'curl', '2025-02-01T00:00:01Z'),
      record('CVE-2022-4450', 'openssl', '2025-02-01T00:00:02Z'),
      record('CVE-2020-0001', ODD_PROJECT, '2025-02-01T00:00:03Z'),
    ]);
    await until(() => told.length >= 3);
    // Once each, however many of its records changed; nothing for what no one follows (openssl's project).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(told.sort()).toEqual([recordUri('CVE-2025-9999'), projectUri('curl'), projectUri(ODD_PROJECT)].sort());
    expect(await read(client, recordUri('CVE-2025-9999'))).toEqual({
      id: 'CVE-2025-9999',
      project: 'openssl',
      status: 'assigned-no-public-record',
      url: null,
    });

    told.length = 0;
    land([], [{ id: 'CVE-2021-44228', modified: '2025-02-02T00:00:00Z' }]);
    await until(() => told.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(told).toEqual([recordUri('CVE-2021-44228')]);
    await expect(client.readResource({ uri: recordUri('CVE-2021-44228') })).rejects.toThrow(/CVE-2021-44228/);

    await subscription.close();
    told.length = 0;
    land([record('CVE-2024-50000', 'curl', '2025-02-03T00:00:00Z')]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(told).toEqual([]);
  });

  it('bounds the subscriptions one address holds and the URIs one names; a closed one frees its share', async () => {
    const { url } = await serve({ streams: { perAddress: 1, keepAliveMs: 15_000 } });
    const client = await modernClient(url);
    const first = await client.listen({ resourceSubscriptions: [recordUri('CVE-2025-9999')] });
    await expect(client.listen({ resourceSubscriptions: [projectUri('curl')] })).rejects.toThrow(/open streams/);
    await first.close();
    // The share is freed when the server sees the stream close, a moment after the client closes it.
    let second: Awaited<ReturnType<Client['listen']>> | undefined;
    const end = Date.now() + 10_000;
    while (second === undefined) {
      second = await client.listen({ resourceSubscriptions: [projectUri('curl')] }).catch((error: Error) => {
        if (Date.now() > end) throw error;
        return undefined;
      });
    }
    await second.close();
    const many = Array.from({ length: MAX_SUBSCRIBED_URIS + 1 }, (_, i) => recordUri(`CVE-2025-${1000 + i}`));
    await expect(client.listen({ resourceSubscriptions: many })).rejects.toThrow(/at most 100 resource URIs/);
  });

  it('ends every subscription when the server drains, so its clients listen again elsewhere', async () => {
    const { app, url } = await serve();
    const client = await modernClient(url);
    const subscription = await client.listen({ resourceSubscriptions: [recordUri('CVE-2025-9999')] });
    app.drain();
    expect(await subscription.closed).toBe('remote');
  });

  it('lets a 2025-era client read, and offers it no subscription it could not be told of', async () => {
    const { url } = await serve();
    const client = new LegacyClient({ name: 'legacy', version: '1.0.0' });
    await client.connect(new LegacyTransport(url));
    closing.push(() => client.close());
    expect(client.getServerCapabilities()?.resources).toEqual({ listChanged: false, subscribe: false });
    const { contents } = await client.readResource({ uri: recordUri('CVE-2025-9999') });
    expect(JSON.parse((contents[0] as { text: string }).text)).toMatchObject({ id: 'CVE-2025-9999', project: 'openssl' });
  });
});
