import { defineConfig } from 'vitest/config';

/** Tests that drive Chromium (test/support/browser.ts). */
const BROWSER_TESTS = 'test/browser-*.test.ts';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
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
