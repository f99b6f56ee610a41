import { defineConfig } from 'vitest/config';

/** Tests that drive Chromium (test/support/browser.ts). */
const BROWSER_TESTS = 'test/system/browser/**/*.test.ts';
/**
 * Tests that talk to PostgreSQL or Redis (test/support/services.ts). Their project starts servers of the
 * run's own when the configured ones do not answer; the other tests never wait for that.
 */
const SERVICE_TESTS = [
  'test/sources/postgres-source.test.ts',
  'test/system/delta-under-load.test.ts',
  'test/system/rate-limit-shared.test.ts',
  'test/system/graceful-operation.test.ts',
  'test/system/deployment.test.ts',
  'test/import/sync.test.ts',
  'test/catalog/known-names.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Child-process tests run bin/, which runs dist/: build it first when src/ is newer.
    globalSetup: ['test/support/build-once.ts'],
    // fast-check properties replay a failing run from FC_SEED and FC_PATH (printed when one fails).
    setupFiles: ['test/support/fast-check-replay.ts'],
    // Two cores: files that start servers and child processes run better without oversubscription.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'service', include: ['test/**/*.test.ts'], exclude: [BROWSER_TESTS, ...SERVICE_TESTS] } },
      // Each of these starts several servers and times what they do (graceful stop, a Redis outage, replicas
      // following a change): they run after the others, one file at a time.
      {
        extends: true,
        test: {
          name: 'postgres-redis',
          include: SERVICE_TESTS,
          globalSetup: ['test/support/services-setup.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      // Chromium alone keeps both cores busy: its tests run last, one file at a time, so timing-sensitive
      // tests (graceful stop, slow clients) never share the machine with it.
      {
        extends: true,
        test: {
          name: 'browser',
          include: [BROWSER_TESTS],
          globalSetup: ['test/support/chromium-setup.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
