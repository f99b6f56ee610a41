// `cve-records serve` settings: each flag has an environment variable; flags win.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_STREAMS, DEFAULT_TIMEOUTS, type ServiceConfig } from '../config.js';
import { parseTrustProxy } from '../http/edge/client-address.js';

export const DEFAULT_RECORDS_FILE = fileURLToPath(new URL('../../data/cve-records.json.gz', import.meta.url));

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const flags = {
  records: {
    env: 'CVE_RECORDS_FILE',
    help: 'what to serve: a catalog file (.json, .json.gz, .snapshot), or a store of record (.db), whose changes are applied live',
    default: 'data/cve-records.json.gz (embedded)',
  },
  'database-url': {
    env: 'CVE_RECORDS_DATABASE_URL',
    help: 'PostgreSQL holding the records (instead of --records); replicas follow its changes',
    default: 'none',
  },
  'fallback-records': {
    env: 'CVE_RECORDS_FALLBACK_RECORDS',
    help: 'catalog file served when PostgreSQL is unreachable at start',
    default: 'none: such a start fails',
  },
  checkpoint: {
    env: 'CVE_RECORDS_CHECKPOINT',
    help: 'a checkpoint of the store served (sync --checkpoint) to start from, plus the rows written after it',
    default: 'none: the store is loaded whole',
  },
  sync: {
    env: 'CVE_RECORDS_SYNC',
    help: 'upstream to follow inside this process (as for cve-records sync) into the --records store (.db) or PostgreSQL',
    default: 'none',
  },
  'sync-interval': { env: 'CVE_RECORDS_SYNC_INTERVAL', help: 'seconds between two syncs with --sync', default: '300' },
  'sync-ids': { env: 'CVE_RECORDS_SYNC_IDS', help: 'the cleared ids file --sync keeps to (as sync --ids)', default: 'none: every record' },
  port: { env: 'CVE_RECORDS_PORT', help: 'TCP port', default: '8080' },
  host: { env: 'CVE_RECORDS_HOST', help: 'address to bind', default: '127.0.0.1' },
  'base-url': { env: 'CVE_RECORDS_BASE_URL', help: 'public origin used in absolute links', default: 'http://<host>:<port>' },
  'site-name': { env: 'CVE_RECORDS_SITE_NAME', help: 'site name in search results', default: 'public-cve-records' },
  'rate-limit-max': { env: 'CVE_RECORDS_RATE_LIMIT_MAX', help: 'requests per window per address', default: '120' },
  'rate-limit-window': { env: 'CVE_RECORDS_RATE_LIMIT_WINDOW', help: 'window length in seconds', default: '60' },
  'trust-proxy': {
    env: 'CVE_RECORDS_TRUST_PROXY',
    help: 'proxies whose Forwarded/X-Forwarded-For is believed: addresses and CIDRs, comma-separated, or a hop count',
    default: 'none',
  },
  'redis-url': {
    env: 'CVE_RECORDS_REDIS_URL',
    help: 'Redis that holds the rate-limit counters shared by processes and replicas',
    default: 'none: each process limits alone',
  },
  workers: { env: 'CVE_RECORDS_WORKERS', help: 'processes serving the port', default: '1' },
  compression: {
    env: 'CVE_RECORDS_COMPRESSION',
    help: 'on: gzip/brotli for bodies over 1 KiB (costs every response, see docs/PERFORMANCE.md); off: leave it to a proxy or CDN',
    default: 'off',
  },
  'cache-max-age': { env: 'CVE_RECORDS_CACHE_MAX_AGE', help: 'Cache-Control max-age of records and documents, in seconds', default: '300' },
  'headers-timeout': {
    env: 'CVE_RECORDS_HEADERS_TIMEOUT',
    help: 'seconds a client has to send its request headers',
    default: String(DEFAULT_TIMEOUTS.headersMs / 1000),
  },
  'keep-alive-timeout': {
    env: 'CVE_RECORDS_KEEP_ALIVE_TIMEOUT',
    help: 'seconds an idle keep-alive connection stays open',
    default: String(DEFAULT_TIMEOUTS.keepAliveMs / 1000),
  },
  'shutdown-timeout': {
    env: 'CVE_RECORDS_SHUTDOWN_TIMEOUT',
    help: 'seconds a stop waits for requests in flight',
    default: String(DEFAULT_TIMEOUTS.shutdownMs / 1000),
  },
  'streams-per-address': {
    env: 'CVE_RECORDS_STREAMS_PER_ADDRESS',
    help: 'change streams one address may hold open at once',
    default: String(DEFAULT_STREAMS.perAddress),
  },
  'cursor-secret': {
    env: 'CVE_RECORDS_CURSOR_SECRET',
    help: 'key that signs cursors; share it between replicas',
    default: 'random per start',
  },
  'v1-deprecation': { env: 'CVE_RECORDS_V1_DEPRECATION', help: 'date v1 was deprecated (ISO 8601); sends Deprecation', default: 'none' },
  'v1-sunset': { env: 'CVE_RECORDS_V1_SUNSET', help: 'date v1 shuts down (ISO 8601); sends Sunset', default: 'none' },
  'v1-successor': { env: 'CVE_RECORDS_V1_SUCCESSOR', help: 'URL of the successor version', default: 'none' },
  'mcp-allowed-origins': {
    env: 'CVE_RECORDS_MCP_ALLOWED_ORIGINS',
    help: 'host names whose pages may call /mcp from a browser, comma-separated (on loopback, loopback names are always allowed)',
    default: 'none',
  },
  'log-level': { env: 'CVE_RECORDS_LOG_LEVEL', help: LOG_LEVELS.join(', '), default: 'info' },
} as const;

type Flag = keyof typeof flags;

export class UsageError extends Error {}

export function serveHelp(): string {
  const rows = (Object.keys(flags) as Flag[]).map(
    (name) => `  --${name.padEnd(18)} ${flags[name].help} (${flags[name].env}; default ${flags[name].default})`,
  );
  return `Usage: cve-records serve [options]\n\nServes the public CVE records API.\n\nOptions:\n${rows.join('\n')}\n  --help               show this help\n`;
}

export function parseServeOptions(args: string[], env: NodeJS.ProcessEnv): ServiceConfig | 'help' {
  const { values } = parseArgs({
    args,
    options: {
      ...Object.fromEntries((Object.keys(flags) as Flag[]).map((name) => [name, { type: 'string' as const }])),
      help: { type: 'boolean' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return 'help';
  const get = (name: Flag): string | undefined =>
    ((values as Record<string, unknown>)[name] as string | undefined) ?? nonEmpty(env[flags[name].env]);

  const host = get('host') ?? '127.0.0.1';
  const port = integer('port', get('port') ?? '8080', 0, 65535);
  const baseUrl = (get('base-url') ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, '');
  if (!URL.canParse(baseUrl)) throw new UsageError(`--base-url: "${baseUrl}" is not an absolute URL`);
  const deprecation = date('v1-deprecation', get('v1-deprecation'));
  const sunset = date('v1-sunset', get('v1-sunset'));
  const successor = get('v1-successor');
  if (successor !== undefined && !URL.canParse(successor)) throw new UsageError('--v1-successor must be an absolute URL');
  if (sunset && !deprecation) throw new UsageError('--v1-sunset needs --v1-deprecation: only a deprecated version can have a sunset');
  if (sunset && deprecation && sunset.getTime() - deprecation.getTime() < 90 * 86_400_000) {
    throw new UsageError('--v1-sunset must be at least 90 days after --v1-deprecation (lifecycle policy)');
  }
  return {
    host,
    port,
    baseUrl,
    recordsFile: get('records') ?? DEFAULT_RECORDS_FILE,
    databaseUrl: databaseUrl(get('database-url')),
    fallbackRecordsFile: get('fallback-records'),
    checkpointFile: get('checkpoint'),
    sync: syncOptions(get('sync'), get('sync-interval'), get('sync-ids'), get('records'), get('database-url')),
    siteName: get('site-name') ?? 'public-cve-records',
    rateLimit: {
      max: integer('rate-limit-max', get('rate-limit-max') ?? '120', 0, 1_000_000),
      windowSeconds: integer('rate-limit-window', get('rate-limit-window') ?? '60', 1, 86_400),
    },
    trustProxy: trustProxy(get('trust-proxy') ?? 'none'),
    redisUrl: redisUrl(get('redis-url')),
    workers: integer('workers', get('workers') ?? '1', 1, 64),
    compression: oneOf('compression', get('compression') ?? 'off', ['on', 'off']) === 'on',
    cacheMaxAgeSeconds: integer('cache-max-age', get('cache-max-age') ?? '300', 0, 31_536_000),
    timeouts: {
      ...DEFAULT_TIMEOUTS,
      headersMs: seconds('headers-timeout', get('headers-timeout'), DEFAULT_TIMEOUTS.headersMs),
      keepAliveMs: seconds('keep-alive-timeout', get('keep-alive-timeout'), DEFAULT_TIMEOUTS.keepAliveMs),
      shutdownMs: seconds('shutdown-timeout', get('shutdown-timeout'), DEFAULT_TIMEOUTS.shutdownMs),
    },
    streams: {
      ...DEFAULT_STREAMS,
      perAddress: integer('streams-per-address', get('streams-per-address') ?? String(DEFAULT_STREAMS.perAddress), 1, 100_000),
    },
    lifecycle: { deprecation, sunset, successor },
    cursorSecret: get('cursor-secret') ?? randomBytes(32).toString('base64url'),
    bodyLimitBytes: 64 * 1024,
    mcpAllowedOrigins: get('mcp-allowed-origins')
      ?.split(',')
      .map((name) => name.trim())
      .filter(Boolean),
    logLevel: oneOf('log-level', get('log-level') ?? 'info', LOG_LEVELS),
  };
}

function syncOptions(
  upstream: string | undefined,
  interval: string | undefined,
  ids: string | undefined,
  records: string | undefined,
  database: string | undefined,
): ServiceConfig['sync'] {
  if (upstream === undefined) {
    if (interval !== undefined || ids !== undefined) throw new UsageError('--sync-interval and --sync-ids need --sync');
    return undefined;
  }
  if (database === undefined && !/\.(db|sqlite|sqlite3)$/i.test(records ?? ''))
    throw new UsageError('--sync writes to the store served: name a .db file with --records, or --database-url');
  return { upstream, intervalSeconds: integer('sync-interval', interval ?? '300', 1, 86_400), ...(ids ? { ids } : {}) };
}

function trustProxy(text: string): ServiceConfig['trustProxy'] {
  try {
    return parseTrustProxy(text);
  } catch (error) {
    throw new UsageError(`--trust-proxy: ${(error as Error).message}`);
  }
}

export function databaseUrl(text: string | undefined): string | undefined {
  if (text !== undefined && !/^postgres(ql)?:\/\//.test(text))
    throw new UsageError(`--database-url: expected postgres://..., got "${text}"`);
  return text;
}

function redisUrl(text: string | undefined): string | undefined {
  if (text !== undefined && !/^rediss?:\/\//.test(text))
    throw new UsageError(`--redis-url: expected redis://host:port or rediss://..., got "${text}"`);
  return text;
}

function seconds(name: string, text: string | undefined, fallbackMs: number): number {
  return text === undefined ? fallbackMs : integer(name, text, 1, 3600) * 1000;
}

function oneOf(name: string, text: string, allowed: readonly string[]): string {
  if (!allowed.includes(text)) throw new UsageError(`--${name}: expected one of ${allowed.join(', ')}, got "${text}"`);
  return text;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function integer(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new UsageError(`--${name}: expected an integer from ${min} to ${max}, got "${text}"`);
  return value;
}

function date(name: string, text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const value = new Date(text);
  if (Number.isNaN(value.getTime())) throw new UsageError(`--${name}: "${text}" is not an ISO 8601 date`);
  return value;
}
