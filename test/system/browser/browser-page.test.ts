// Issue 7, the page in headless Chromium with JavaScript: it loads, searches, filters and pages in
// place (history and announcements included), is usable from the keyboard, labelled and legible, and
// leaves a screenshot in test-artifacts/.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { NlwebResponse } from '../../../src/contract/index.js';
import { PAGE_CSP } from '../../../src/http/web/content-security-policy.js';
import { PAGE_SIZE, SEARCH_RESULTS } from '../../../src/http/web/home-page.js';
import { loadDefaultCatalog } from '../../support/app.js';
import { saveScreenshot, serviceAndBrowser, watchProblems } from '../../support/browser.js';

const env = serviceAndBrowser();

/** The few members of the page's globals the in-page checks read (the type check runs without the DOM library). */
interface PageElement {
  readonly id: string;
  readonly tagName: string;
  readonly className: string;
  readonly textContent: string | null;
  readonly parentElement: PageElement | null;
  readonly childNodes: Iterable<{ readonly nodeType: number; readonly textContent: string | null }>;
  getBoundingClientRect(): { readonly width: number; readonly height: number };
}
interface PageGlobals {
  readonly document: {
    readonly activeElement: PageElement | null;
    readonly body: { querySelectorAll(selector: string): Iterable<PageElement> };
  };
  getComputedStyle(element: PageElement): { readonly color: string; readonly backgroundColor: string };
  stayed?: boolean;
}

/** A fresh page at `path` and the problems it reports; `stayed` is set on it, and lost if it ever reloads. */
async function open(path: string): Promise<{ page: Page; problems: string[] }> {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = watchProblems(page);
  await page.goto(env.baseUrl + path);
  await page.evaluate(() => {
    (globalThis as unknown as PageGlobals).stayed = true;
  });
  return { page, problems };
}

const rowIds = (page: Page) => page.locator('#results tbody th[scope=row]').allInnerTexts();
const stayed = (page: Page) => page.evaluate(() => (globalThis as unknown as PageGlobals).stayed === true);
/** The values the project field's datalist suggests. */
const suggestions = (page: Page) =>
  page.locator('#project-suggestions option').evaluateAll((options) => options.map((o) => o.getAttribute('value')));
const focused = (page: Page) => page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.id);

describe('the page with JavaScript', () => {
  it('loads the newest records with its own policy and no error, and saves a screenshot', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = watchProblems(page);
    const response = await page.goto(`${env.baseUrl}/`);
    expect(response!.headers()['content-security-policy']).toBe(PAGE_CSP);
    expect(await page.title()).toBe('Records · Public CVE Records');
    await expect.poll(() => page.locator('h1').innerText()).toBe('Cleared CVE records');
    const expected = (await (await fetch(`${env.baseUrl}/api/v1/cve-records?limit=${PAGE_SIZE}`)).json()) as { records: { id: string }[] };
    expect(await rowIds(page)).toEqual(expected.records.map((r) => r.id));
    const screenshot = await saveScreenshot(page, 'web-home');
    expect(screenshot).toMatch(/test-artifacts\/web-home\.png$/);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('searches from the keyboard, in place: results of /ask, address and history updated, result announced', async () => {
    const { page, problems } = await open('/');
    for (let presses = 0; presses < 10; presses++) {
      if ((await focused(page)) === 'search-query') break;
      await page.keyboard.press('Tab');
    }
    expect(await focused(page)).toBe('search-query');
    await page.keyboard.type('openssl since 2024');
    await page.keyboard.press('Enter');

    await page.waitForURL(`${env.baseUrl}/?query=openssl+since+2024`);
    await expect.poll(() => page.locator('#results-heading').innerText()).toBe('Search results for “openssl since 2024”');
    const ask = (await (await fetch(`${env.baseUrl}/ask?query=openssl%20since%202024&limit=${SEARCH_RESULTS}`)).json()) as NlwebResponse;
    expect(await rowIds(page)).toEqual(ask.results.map((r) => r.name.split(' ')[0]));
    expect(await page.locator('.reading').innerText()).toContain('year >= 2024');
    expect(await stayed(page)).toBe(true);
    expect(await page.locator('#live-status').innerText()).toBe(await page.locator('#results').getAttribute('data-summary'));
    expect(await focused(page)).toBe('results-heading');
    expect(await page.title()).toBe('Search: openssl since 2024 · Public CVE Records');
    await saveScreenshot(page, 'web-search');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('filters by status as soon as one is chosen, then by project, in place', async () => {
    const { page, problems } = await open('/');
    await page.getByLabel('Status').selectOption('assigned-no-public-record');
    await page.waitForURL(`${env.baseUrl}/?status=assigned-no-public-record`);
    const assigned = (await loadDefaultCatalog()).records.filter((r) => r.status === 'assigned-no-public-record');
    await expect.poll(() => rowIds(page)).toHaveLength(assigned.length);
    expect(new Set(await page.locator('#results tbody .status').allInnerTexts())).toEqual(new Set(['Assigned, not yet public']));

    await page.getByLabel('Project').fill('OpenSSL');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(`${env.baseUrl}/?project=OpenSSL&status=assigned-no-public-record`);
    const openssl = assigned.filter((r) => r.project === 'OpenSSL').map((r) => r.id);
    await expect.poll(async () => (await rowIds(page)).sort()).toEqual(openssl.sort());
    expect(await stayed(page)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('filters by severity and KEV as soon as they are chosen, and the fields follow the history', async () => {
    const { page, problems } = await open('/');
    await page.getByLabel('Severity', { exact: true }).selectOption('critical');
    await page.waitForURL(`${env.baseUrl}/?severity=critical`);
    await page.getByLabel('Known exploited (CISA KEV)').selectOption('true');
    await page.waitForURL(`${env.baseUrl}/?severity=critical&kev=true`);
    const api = (await (await fetch(`${env.baseUrl}/api/v1/cve-records?severity=critical&kev=true&limit=${PAGE_SIZE}`)).json()) as {
      records: { id: string }[];
    };
    await expect.poll(() => rowIds(page)).toEqual(api.records.map((r) => r.id));
    expect(new Set(await page.locator('#results tbody .severity-cell').allInnerTexts())).toEqual(new Set(['Critical']));
    expect(new Set(await page.locator('#results tbody .kev-cell').allInnerTexts())).toEqual(new Set(['Known exploited']));

    await page.goBack();
    await page.waitForURL(`${env.baseUrl}/?severity=critical`);
    await expect.poll(() => page.getByLabel('Known exploited (CISA KEV)').inputValue()).toBe('');
    expect(await page.getByLabel('Severity', { exact: true }).inputValue()).toBe('critical');
    expect(await stayed(page)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  /** The names the projects operation gives for `q`, as the page asks for them. */
  const projectsNamed = async (q: string): Promise<string[]> => {
    const page = (await (await fetch(`${env.baseUrl}/api/v1/projects?q=${q}&limit=10`)).json()) as { projects: { name: string }[] };
    return page.projects.map((project) => project.name);
  };

  it('suggests the projects the projects operation names as the project field is typed in', async () => {
    const { page, problems } = await open('/');
    const served = await suggestions(page);
    expect(served.length).toBeGreaterThan(10);
    const field = page.getByLabel('Project');
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/projects')) asked.push(request.url());
    });
    // Typed a key at a time: the field waits for a pause, so one request answers the whole name.
    await field.pressSequentially('opens', { delay: 30 });
    const named = await projectsNamed('opens');
    expect(named).toContain('OpenSSL');
    await expect.poll(() => suggestions(page)).toEqual(named);
    expect(asked).toEqual([`${env.baseUrl}/api/v1/projects?q=opens&limit=10`]);

    // An answer to older text never replaces the suggestions for newer text.
    const isSlow = (url: string) => url.includes('/api/v1/projects?q=linu&');
    await page.route(
      (url) => isSlow(url.href),
      async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        await route.continue();
      },
    );
    const slowAsked = page.waitForRequest((request) => isSlow(request.url()));
    await field.fill('linu');
    await slowAsked;
    const slowAnswered = page.waitForResponse((response) => isSlow(response.url()));
    await field.fill('MySQL');
    const mysql = await projectsNamed('MySQL');
    await expect.poll(() => suggestions(page)).toEqual(mysql);
    await slowAnswered;
    await page.waitForTimeout(100);
    expect(await suggestions(page)).toEqual(mysql);

    // Emptied, the field suggests what the server did.
    await field.fill('');
    expect(await suggestions(page)).toEqual(served);
    expect(await stayed(page)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('keeps the suggestions it has when the projects operation fails', async () => {
    const { page } = await open('/');
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.route('**/api/v1/projects?*', (route) => route.fulfill({ status: 503, body: '' }));
    const served = await suggestions(page);
    const failed = page.waitForResponse((response) => response.url().includes('/api/v1/projects'));
    await page.getByLabel('Project').fill('opens');
    expect((await failed).status()).toBe(503);
    await page.waitForTimeout(100);
    expect(await suggestions(page)).toEqual(served);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('pages with the Next link and the First page link, and back and forward with the history', async () => {
    const { page, problems } = await open('/?project=Linux');
    const first = await rowIds(page);
    expect(first).toHaveLength(PAGE_SIZE);

    await page.getByRole('link', { name: `Next ${PAGE_SIZE} records` }).click();
    await page.waitForURL(/\/\?project=Linux&cursor=/);
    await expect.poll(async () => (await rowIds(page))[0]).not.toBe(first[0]);
    const second = await rowIds(page);
    expect(second.some((id) => first.includes(id))).toBe(false);
    const secondUrl = page.url();

    await page.getByRole('link', { name: 'First page' }).click();
    await page.waitForURL(`${env.baseUrl}/?project=Linux`);
    await expect.poll(() => rowIds(page)).toEqual(first);

    await page.goBack();
    expect(page.url()).toBe(secondUrl);
    await expect.poll(() => rowIds(page)).toEqual(second);
    await page.goForward();
    await expect.poll(() => rowIds(page)).toEqual(first);
    expect(await stayed(page)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('opens a record page from the table, whose project link lists that project', async () => {
    const { page, problems } = await open('/?project=OpenSSL&status=public');
    const id = (await rowIds(page))[0]!;
    await page.getByRole('link', { name: id, exact: true }).click();
    await page.waitForURL(`${env.baseUrl}/records/${id}`);
    expect(await page.locator('h1').innerText()).toBe(id);
    await page.getByRole('link', { name: 'OpenSSL', exact: true }).click();
    await page.waitForURL(`${env.baseUrl}/?project=OpenSSL`);
    await expect.poll(() => page.locator('#results-heading').innerText()).toMatch(/ records · project OpenSSL$/);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('is accessible: a language, labelled fields, a skip link, landmarks and text contrast of at least 4.5:1', async () => {
    const { page } = await open('/?query=openssl');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    const fields = await page.locator('input, select').all();
    expect(fields.length).toBeGreaterThan(2);
    for (const field of fields) {
      const id = await field.getAttribute('id');
      expect(await page.locator(`label[for="${id}"]`).count(), `label of #${id}`).toBe(1);
    }
    for (const role of ['banner', 'main', 'contentinfo', 'search'] as const) expect(await page.getByRole(role).count(), role).toBe(1);
    expect(await page.getByRole('navigation', { name: 'Site' }).count()).toBe(1);

    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await focused(page)).toBe('main');

    const contrasts = await page.evaluate(lowestContrasts);
    expect(contrasts.filter(([, ratio]) => ratio < 4.5)).toEqual([]);
    expect(contrasts.length).toBeGreaterThan(10);
    await page.close();
  });
});

/**
 * WCAG contrast of the text of every element with text of its own against the background behind it,
 * one entry per distinct (selector, ratio). Runs in the page.
 */
function lowestContrasts(): Array<[string, number]> {
  // Runs in the page: only its own globals are in reach.
  const { document, getComputedStyle } = globalThis as unknown as PageGlobals;
  const TEXT_NODE = 3;
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const parse = (color: string) => (color.match(/[\d.]+/g) ?? []).map(Number);
  const luminance = ([r = 0, g = 0, b = 0]: number[]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const background = (element: PageElement | null): number[] => {
    for (let at = element; at; at = at.parentElement) {
      const color = parse(getComputedStyle(at).backgroundColor);
      if (color[3] === undefined || color[3] > 0) return color;
    }
    return [255, 255, 255];
  };
  const seen = new Map<string, number>();
  for (const element of document.body.querySelectorAll('*')) {
    const ownText = [...element.childNodes].some((node) => node.nodeType === TEXT_NODE && node.textContent!.trim() !== '');
    const box = element.getBoundingClientRect();
    if (!ownText || box.width <= 1 || box.height <= 1) continue;
    const [l1, l2] = [luminance(parse(getComputedStyle(element).color)), luminance(background(element))].sort((a, b) => b - a);
    const ratio = Math.round(((l1! + 0.05) / (l2! + 0.05)) * 100) / 100;
    const key = `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(' ').join('.')}` : ''}`;
    seen.set(key, Math.min(ratio, seen.get(key) ?? Infinity));
  }
  return [...seen];
}
