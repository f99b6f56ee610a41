// Debian's Chromium driven by playwright-core: how the browser tests start it, watch a page for errors
// and keep screenshots. The browser project's global setup installs it when it is missing
// (test/support/chromium-setup.ts).
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { ServiceConfig } from '../../src/config.js';
import { buildTestApp, loadDefaultCatalog } from './app.js';
import { CHROMIUM } from './chromium-setup.js';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A headless Chromium; `webmcp` turns on the experimental WebMCP API (`document.modelContext`). */
export async function launchChromium(options: { webmcp?: boolean } = {}): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...(options.webmcp ? ['--enable-features=WebMCP'] : [])] });
}

/**
 * The service on the default dataset, listening on a loopback port that is also its base URL, so that
 * the links it writes (the OpenAPI `servers`, search results) lead back to it from the browser.
 */
export async function serveDefaultDataset(config: Partial<ServiceConfig> = {}): Promise<{ app: FastifyInstance; baseUrl: string }> {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const app = await buildTestApp({ catalog: await loadDefaultCatalog(), config: { ...config, baseUrl } });
  await app.listen({ host: '127.0.0.1', port });
  return { app, baseUrl };
}

/**
 * What a page reports as wrong while the test runs: uncaught exceptions, console errors (Chromium
 * logs Content-Security-Policy violations there) and failed requests. Expect it to stay empty.
 */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
  return problems;
}

const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

/** Saves a full-page screenshot as test-artifacts/<name>.png and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = `${ARTIFACTS}${name}.png`;
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * The service on the default dataset and a Chromium, for one test file: started before its tests,
 * closed after them. The fields are filled in by the time the tests run.
 */
export function serviceAndBrowser(options: { webmcp?: boolean; config?: Partial<ServiceConfig> } = {}): {
  app: FastifyInstance;
  baseUrl: string;
  browser: Browser;
} {
  const env = {} as { app: FastifyInstance; baseUrl: string; browser: Browser };
  beforeAll(async () => {
    Object.assign(env, await serveDefaultDataset(options.config));
    env.browser = await launchChromium(options);
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.app?.close();
  });
  return env;
}
