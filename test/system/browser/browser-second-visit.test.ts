// Issue 16: the files of the pages are kept by the browser, so a second visit asks the service for the
// page alone (a first visit to /docs costs 8 requests of the rate limit).
import { describe, expect, it } from 'vitest';
import { serviceAndBrowser } from '../../support/browser.js';

// Documents kept for no time, as after their max-age: the browser must ask for them again, not for the files.
const env = serviceAndBrowser({ config: { cacheMaxAgeSeconds: 0 } });

describe('a second visit', () => {
  it.each([
    ['/', 'main'],
    ['/docs', '.opblock'],
  ])('to %s asks for nothing but the page', async (path, drawn) => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const visit = async (): Promise<string[]> => {
      const page = await context.newPage();
      // What reached the network: Chromium's DevTools protocol tells which requests its cache answered.
      const session = await context.newCDPSession(page);
      await session.send('Network.enable');
      const sent = new Map<string, string>();
      session.on('Network.requestWillBeSent', ({ requestId, request }) => {
        if (!request.url.startsWith('data:')) sent.set(requestId, new URL(request.url).pathname);
      });
      session.on('Network.requestServedFromCache', ({ requestId }) => sent.delete(requestId));
      session.on('Network.responseReceived', ({ requestId, response }) => {
        if (response.fromDiskCache) sent.delete(requestId);
      });
      await page.goto(`${env.baseUrl}${path}`);
      await page.locator(drawn).first().waitFor();
      await page.waitForLoadState('networkidle');
      await page.close();
      return [...sent.values()];
    };
    expect((await visit()).length).toBeGreaterThan(3);
    // The page and the OpenAPI document it draws are documents of a short max-age; the files are kept.
    expect((await visit()).filter((requested) => requested !== path && requested !== '/openapi.json')).toEqual([]);
    await context.close();
  });
});
