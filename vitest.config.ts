import { defineConfig } from 'vitest/config';

/** Tests that drive Chromium (test/support/browser.ts). */
const BROWSER_TESTS = 'test/system/browser/**/*.test.ts';

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
      { extends: true, test: { name: 'service', include: ['test/**/*.test.ts'], exclude: [BROWSER_TESTS] } },
      // Chromium alone keeps both cores busy: its tests run once the others are done, one file at a time,
      // so timing-sensitive tests (graceful stop, slow clients) never share the machine with it.
      { extends: true, test: { name: 'browser', include: [BROWSER_TESTS], fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
