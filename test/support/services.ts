// The PostgreSQL and Redis the tests of the `postgres-redis` project talk to: the configured ones, or
// servers the run started because none answered (test/support/services-setup.ts). A test file elsewhere
// gets a message saying where it belongs instead of an undefined address.
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string;
  }
}

function provided(name: 'databaseUrl' | 'redisUrl'): string {
  const url = inject(name);
  if (!url) throw new Error(`no ${name}: a test file that uses PostgreSQL or Redis belongs in SERVICE_TESTS of vitest.config.ts`);
  return url;
}

/** A PostgreSQL database the tests may create schemas in (postgres://…). */
export const testDatabaseUrl = (): string => provided('databaseUrl');
/** A Redis the tests may write rate-limit counters to (redis://…). */
export const testRedisUrl = (): string => provided('redisUrl');
