// Issue 16: on a phone (320 to 390 px wide) no page scrolls sideways, and the result tables stack.
import { describe, expect, it } from 'vitest';
import { serviceAndBrowser } from '../../support/browser.js';

const env = serviceAndBrowser();

// `/?severity=critical&kev=true`: every row has a severity and a KEV badge.
const PAGES = [
  '/',
  '/?query=openssl',
  '/?project=Linux',
  '/?severity=critical&kev=true',
  '/records/CVE-2025-24530',
  '/records/CVE-2024-6119',
];

describe.each([320, 390])('at %i px', (width) => {
  it.each(PAGES)('%s fits the screen, its result rows stacked', async (path) => {
    const page = await env.browser.newPage({ viewport: { width, height: 800 } });
    await page.goto(`${env.baseUrl}${path}`);
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow, `${path} scrolls sideways`).toBe(0);
    const rows = (await page.evaluate(
      `[...document.querySelectorAll('table.records tbody tr')].map((row) => [row.getBoundingClientRect().width, row.getBoundingClientRect().height])`,
    )) as [number, number][];
    for (const [rowWidth, rowHeight] of rows) {
      expect(rowWidth).toBeLessThanOrEqual(width);
      // A stacked row is a few lines, not a band as tall as a column of wrapped words.
      expect(rowHeight).toBeLessThan(400);
    }
    await page.close();
  });
});
