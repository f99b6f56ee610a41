// Issue 7, /docs in headless Chromium: Swagger UI, served by the service itself, renders every
// operation of /openapi.json under the page's policy, and "Try it out" reaches the API.
import { describe, expect, it } from 'vitest';
import { operations } from '../../../src/contract/index.js';
import { saveScreenshot, serviceAndBrowser, watchProblems } from '../../support/browser.js';

const env = serviceAndBrowser();

describe('the API reference at /docs', () => {
  it('renders every operation of the OpenAPI document from files of this origin only', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = watchProblems(page);
    const origins = new Set<string>();
    page.on('request', (request) => {
      if (!request.url().startsWith('data:')) origins.add(new URL(request.url()).origin);
    });
    await page.goto(`${env.baseUrl}/docs`);
    await page.locator('.opblock').first().waitFor();

    const shown = await page.locator('.opblock-summary').evaluateAll((blocks) =>
      blocks.map((block) => {
        const text = (selector: string) =>
          block
            .querySelector(selector)
            ?.textContent?.replace(/\u200b/g, '')
            .trim();
        return `${text('.opblock-summary-method')} ${text('.opblock-summary-path')} ${text('.opblock-summary-description')}`;
      }),
    );
    const expected = operations.flatMap((op) => [
      `${op.method} ${op.path} ${op.summary}`,
      ...(op.post ? [`POST ${op.path} ${op.summary} (POST)`] : []),
    ]);
    expect(shown.sort()).toEqual(expected.sort());
    expect(await page.locator('.info .title').innerText()).toContain('Public CVE Records API');
    expect([...origins]).toEqual([env.baseUrl]);
    await saveScreenshot(page, 'web-docs');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('answers "Try it out" with the record from this service', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = watchProblems(page);
    await page.goto(`${env.baseUrl}/docs`);
    await page.getByText('/api/v1/cve-records/{recordId}', { exact: true }).click();
    await page.getByRole('button', { name: 'Try it out' }).click();
    await page.getByPlaceholder('recordId').fill('CVE-2024-6119');
    await page.getByRole('button', { name: 'Execute' }).click();
    const body = page.locator('.live-responses-table .response-col_description pre').first();
    await expect.poll(() => body.innerText()).toContain('"id": "CVE-2024-6119"');
    expect(problems).toEqual([]);
    await page.close();
  });
});
