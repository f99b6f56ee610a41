// Issue 16: axe-core finds no violation on the pages, the API reference included, wide and on a phone.
// axe-core is run through the DevTools protocol (page.evaluate), which the pages' Content-Security-Policy
// does not govern, so the pages are checked under their real policy.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serviceAndBrowser } from '../../support/browser.js';

const env = serviceAndBrowser();

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What the page must show before it is checked: the API reference is drawn by a script. */
const PAGES: ReadonlyArray<[path: string, drawn: string]> = [
  ['/', 'main'],
  ['/?query=openssl', '#results'],
  // Every row with a severity and a KEV badge, and both filters chosen in the form.
  ['/?severity=critical&kev=true', 'main'],
  ['/records/CVE-2025-24530', 'main'],
  ['/records/CVE-2024-6119', 'main'],

  ['/docs', '.opblock'],
];

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: ReadonlyArray<{ readonly target: unknown; readonly failureSummary?: string }>;
}

/** Every violation of axe-core's default rules (WCAG 2.x A and AA and its best practices), one line each. */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const found = (await page.evaluate('axe.run(document).then((result) => result.violations)')) as AxeViolation[];
  return found.flatMap((violation) =>
    violation.nodes.map(
      (node) => `${violation.impact} ${violation.id} (${violation.help}) at ${JSON.stringify(node.target)}: ${node.failureSummary}`,
    ),
  );
}

describe.each([1280, 390])('at %i px', (width) => {
  it.each(PAGES)('%s has no axe-core violation', async (path, drawn) => {
    const page = await env.browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(`${env.baseUrl}${path}`);
    await page.locator(drawn).first().waitFor();
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  it('/docs has no axe-core violation once an operation is tried out', async () => {
    const page = await env.browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(`${env.baseUrl}/docs`);
    await page.getByText('/api/v1/cve-records/{recordId}', { exact: true }).click();
    await page.getByRole('button', { name: 'Try it out' }).click();
    await page.getByPlaceholder('recordId').fill('CVE-2024-6119');
    await page.getByRole('button', { name: 'Execute' }).click();
    await page.locator('.live-responses-table').waitFor();
    expect(await violations(page)).toEqual([]);
    await page.close();
  });
});
