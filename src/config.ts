// The service's settings, resolved once by the CLI and passed down; nothing else reads the environment.

export interface LifecycleConfig {
  /** When v1 was formally deprecated; sends `Deprecation` when set. */
  readonly deprecation?: Date | undefined;
  /** When v1 shuts down; sends `Sunset` when set. */
  readonly sunset?: Date | undefined;
  /** Absolute URL of the successor version. */
  readonly successor?: string | undefined;
}

export interface ServiceConfig {
  readonly host: string;
  readonly port: number;
  /** Public origin of the service, without a trailing slash, e.g. `https://cve.example.org`. */
  readonly baseUrl: string;
  readonly recordsFile: string;
  readonly siteName: string;
  readonly rateLimit: { readonly max: number; readonly windowSeconds: number };
  readonly lifecycle: LifecycleConfig;
  /** Key of the cursor HMAC; replicas behind one name must share it. */
  readonly cursorSecret: string;
  readonly bodyLimitBytes: number;
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  readonly logLevel: string;
}
