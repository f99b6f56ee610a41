// Issue 7, the page in headless Chromium with JavaScript turned off: every form and link is a plain
// GET, so it searches, filters, pages and opens records all the same.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SIZE } from '../../../src/http/web/home-page.js';
import { loadDefaultCatalog } from '../../support/app.js';
import { saveScreenshot, serviceAndBrowser, watchProblems } from '../../support/browser.js';

const env = serviceAndBrowser();
let context: BrowserContext;
beforeAll(async () => {
  context = await env.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
});
afterAll(async () => {
  await context?.close();
});

const rowIds = (page: Page) => page.locator('#results tbody th[scope=row]').allInnerTexts();

describe('the page without JavaScript', () => {
  it('loads, searches, filters, pages and opens a record through full page loads', async () => {
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${env.baseUrl}/`);
    expect(await rowIds(page)).toHaveLength(PAGE_SIZE);

    await page.getByLabel('Search records').fill('openssl');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(`${env.baseUrl}/?query=openssl`);
    expect(await page.locator('#results-heading').innerText()).toBe('Search results for “openssl”');
    expect((await rowIds(page)).length).toBeGreaterThan(0);

    // Choosing a status applies it at once only through the page script: here nothing happens until the form is sent.
    await page.getByLabel('Project').fill('Linux');
    await page.getByLabel('Status').selectOption('public');
    await page.waitForTimeout(300);
    expect(page.url()).toBe(`${env.baseUrl}/?query=openssl`);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    // A form sent without the script carries its empty fields too, which the page ignores.
    await page.waitForURL(`${env.baseUrl}/?project=Linux&status=public&severity=&kev=&version=`);
    const linux = (await loadDefaultCatalog()).records.filter((r) => r.project === 'Linux' && r.status === 'public');
    expect(await page.locator('#results-heading').innerText()).toBe(`${linux.length} records · project Linux · status Public`);
    const first = await rowIds(page);

    await page.getByRole('link', { name: `Next ${PAGE_SIZE} records` }).click();
    await page.waitForURL(/\/\?project=Linux&status=public&cursor=/);
    const second = await rowIds(page);
    expect(second).toHaveLength(PAGE_SIZE);
    expect(second.some((id) => first.includes(id))).toBe(false);
    await saveScreenshot(page, 'web-no-script');

    await page.getByRole('link', { name: second[0], exact: true }).click();
    await page.waitForURL(`${env.baseUrl}/records/${second[0]}`);
    expect(await page.locator('h1').innerText()).toBe(second[0]);
    expect(await page.locator('.record-fields').innerText()).toContain('Linux');
    expect(problems).toEqual([]);
    await page.close();
  });
});
