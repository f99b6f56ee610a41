// The service's settings, resolved once by the CLI and passed down; nothing else reads the environment.

export interface LifecycleConfig {
  /** When v1 was formally deprecated; sends `Deprecation` when set. */
  readonly deprecation?: Date | undefined;
  /** When v1 shuts down; sends `Sunset` when set. */
  readonly sunset?: Date | undefined;
  /** Absolute URL of the successor version. */
  readonly successor?: string | undefined;
}

/** Which peers may name the client in `Forwarded`/`X-Forwarded-For`. */
export type TrustProxy =
  | { readonly kind: 'none' }
  | { readonly kind: 'hops'; readonly hops: number }
  | { readonly kind: 'addresses'; readonly list: readonly string[] };

export interface Timeouts {
  /** Time a client has to send the request headers (slow-loris defence). */
  readonly headersMs: number;
  /** Time a client has to send the whole request. */
  readonly requestMs: number;
  /** How long an idle keep-alive connection stays open. */
  readonly keepAliveMs: number;
  /** How long a stop waits for requests in flight before closing their connections. */
  readonly shutdownMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000, shutdownMs: 10_000 };

/** Long-lived event streams (the change stream). */
export interface StreamSettings {
  /** Streams one address may hold open at once (IPv6: one /64); one more is a 429. */
  readonly perAddress: number;
  /** Interval of the keep-alive comments that keep proxies from closing a quiet stream. */
  readonly keepAliveMs: number;
}

export const DEFAULT_STREAMS: StreamSettings = { perAddress: 16, keepAliveMs: 15_000 };

export interface ServiceConfig {
  readonly host: string;
  readonly port: number;
  /** Public origin of the service, without a trailing slash, e.g. `https://cve.example.org`. */
  readonly baseUrl: string;
  readonly recordsFile: string;
  /** PostgreSQL holding the records for every replica; when set, it is the source instead of the file. */
  readonly databaseUrl?: string | undefined;
  /** Catalog file served when PostgreSQL is unreachable at start; none means such a start fails. */
  readonly fallbackRecordsFile?: string | undefined;
  /**
   * Upstream followed inside the serving process (`--sync`), into the store it serves (an SQLite `--records`
   * file or PostgreSQL), every `intervalSeconds`; `ids`: the cleared ids file of the selection.
   */
  /** A checkpoint of the store served (a snapshot file naming it and its sequence), to start from. */
  readonly checkpointFile?: string | undefined;
  readonly sync?: { readonly upstream: string; readonly intervalSeconds: number; readonly ids?: string | undefined } | undefined;
  readonly siteName: string;
  /** `max` 0 turns the limiter off (for a gateway that enforces the limit itself). */
  readonly rateLimit: { readonly max: number; readonly windowSeconds: number };
  readonly trustProxy: TrustProxy;
  /** Shared limiter counters; none means each process limits on its own. */
  readonly redisUrl?: string | undefined;
  /** Processes serving one port. */
  readonly workers: number;
  /** Compress bodies over 1 KiB for clients that accept it; off when a proxy in front does it. */
  readonly compression: boolean;
  /** `Cache-Control: max-age` of records and discovery documents. */
  readonly cacheMaxAgeSeconds: number;
  readonly timeouts: Timeouts;
  /** Absent: DEFAULT_STREAMS. */
  readonly streams?: StreamSettings | undefined;
  readonly lifecycle: LifecycleConfig;
  /** Key of the cursor HMAC; replicas behind one name must share it. */
  readonly cursorSecret: string;
  readonly bodyLimitBytes: number;
  /**
   * Hostnames (port-agnostic, IPv6 in brackets) of browser pages allowed to call /mcp, besides the
   * service's own. Unset: loopback pages only when bound to a loopback address, any page otherwise.
   */
  readonly mcpAllowedOrigins?: readonly string[] | undefined;
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  readonly logLevel: string;
}
