import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { readCatalogFile } from '../../src/catalog/json/catalog-file.js';
import { DEFAULT_RECORDS_FILE } from '../../src/cli/serve-options.js';
import { DEFAULT_TIMEOUTS, type ServiceConfig } from '../../src/config.js';
import type { CatalogFile, CatalogRecord } from '../../src/contract/index.js';
import { createCursorCodec } from '../../src/core/cursor.js';
import type { SourceStatus } from '../../src/core/service-info.js';
import { createSnapshot, type Snapshot } from '../../src/core/snapshot.js';
import { SnapshotStore } from '../../src/core/snapshot-store.js';
import type { RateStore } from '../../src/http/edge/rate-limit/gcra.js';
import { buildServer } from '../../src/http/server.js';

export const TEST_BASE_URL = 'http://cve.test';

export function testConfig(overrides: Partial<ServiceConfig> = {}): ServiceConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    baseUrl: TEST_BASE_URL,
    recordsFile: DEFAULT_RECORDS_FILE,
    siteName: 'public-cve-records',
    // High enough that no suite trips it by accident; test/rate-limit.test.ts sets its own.
    rateLimit: { max: 1_000_000, windowSeconds: 60 },
    trustProxy: { kind: 'none' },
    workers: 1,
    cacheMaxAgeSeconds: 300,
    compression: true,
    timeouts: DEFAULT_TIMEOUTS,
    lifecycle: {},
    cursorSecret: 'test-secret',
    bodyLimitBytes: 64 * 1024,
    logLevel: 'silent',
    ...overrides,
  };
}

const record = (
  id: string,
  project: string,
  status: CatalogRecord['status'] = 'public',
  extra: Partial<CatalogRecord> = {},
): CatalogRecord => ({
  id,
  project,
  status,
  url: status === 'public' ? `https://www.cve.org/CVERecord?id=${id}` : null,
  ...extra,
});

/** A small catalog whose order and filters are easy to reason about. Given out of order on purpose. */
export const fixtureCatalog: CatalogFile = {
  lastVerified: '2025-01-24',
  records: [
    record('CVE-2024-50000', 'curl', 'public', { summary: 'Heap overflow in curl SOCKS5 proxy handshake.', published: '2024-10-01' }),
    record('CVE-2025-9999', 'openssl'),
    record('CVE-2023-0001', 'openssl', 'assigned-no-public-record'),
    record('CVE-2025-10000', 'Linux'),
    record('CVE-2024-1234', 'openssl', 'public', { summary: 'Timing side channel in RSA decryption.' }),
    record('CVE-2022-4450', 'openssl'),
    record('CVE-2025-0001', 'curl', 'assigned-no-public-record'),
    record('CVE-2021-44228', 'log4j'),
  ],
};

/** Listing order of fixtureCatalog. */
export const fixtureOrder = [
  'CVE-2025-10000',
  'CVE-2025-9999',
  'CVE-2025-0001',
  'CVE-2024-50000',
  'CVE-2024-1234',
  'CVE-2023-0001',
  'CVE-2022-4450',
  'CVE-2021-44228',
];

export async function buildTestApp(
  options: {
    catalog?: CatalogFile;
    snapshot?: Snapshot;
    config?: Partial<ServiceConfig>;
    rateStore?: RateStore;
    source?: SourceStatus;
  } = {},
): Promise<FastifyInstance> {
  const config = testConfig(options.config);
  const snapshot = options.snapshot ?? createSnapshot(options.catalog ?? fixtureCatalog);
  const app = await buildServer(
    {
      config,
      store: new SnapshotStore(snapshot),
      cursors: createCursorCodec(config.cursorSecret),
      ...(options.source ? { source: options.source } : {}),
    },
    { ...(options.rateStore ? { rateStore: options.rateStore } : {}) },
  );
  await app.ready();
  return app;
}

/**
 * A test app listening on a free loopback port and configured with that address as its base URL, so
 * that what it advertises (the agent card's endpoint) is where a client really calls.
 */
export async function buildListeningApp(
  options: { catalog?: CatalogFile; config?: Partial<ServiceConfig> } = {},
): Promise<{ app: FastifyInstance; baseUrl: string }> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  const baseUrl = `http://127.0.0.1:${port}`;
  const app = await buildTestApp({ ...options, config: { ...options.config, baseUrl, port } });
  await app.listen({ host: '127.0.0.1', port });
  return { app, baseUrl };
}

let defaultCatalog: Promise<CatalogFile> | undefined;
/** The embedded real dataset, read once per test file. */
export function loadDefaultCatalog(): Promise<CatalogFile> {
  defaultCatalog ??= readCatalogFile(DEFAULT_RECORDS_FILE);
  return defaultCatalog;
}
