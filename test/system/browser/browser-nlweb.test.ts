// Issue 16, item 1: an NLWeb UI renders results from this service. NLWeb's reference UIs cannot be
// committed here, so the page below reproduces how they consume /ask, step for step, and cites what
// each part mirrors (github.com/nlweb-ai/NLWeb, static/, as of August 2025). It runs in Chromium on an
// origin of its own (a loopback server on another port: cross-origin, as an NLWeb UI pointed at this
// service would be; a page Chromium gets from a route has no address, and its local network checks then
// refuse loopback requests): a native EventSource, `onmessage`,
// `JSON.parse(event.data)`, a switch on `message_type`, and the result fields those UIs render.
import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceAndBrowser, watchProblems } from '../../support/browser.js';

const env = serviceAndBrowser();

/** What the UI drew: one entry per rendered item, and the notes it showed. */
interface Rendered {
  items: { name: string; href: string; description: string; site: string; type: string }[];
  notes: string[];
  closed: boolean;
}

// The client code, as the reference UIs run it. Written out here, not copied: same calls, same order.
const CLIENT = `
// Mirrors ManagedEventSource#connect and #handleMessage (static/managed-event-source.js): a native
// EventSource on the /ask URL, onmessage, JSON.parse of event.data, messages of another query_id dropped.
function managedEventSource(url, queryId, ui) {
  const source = new EventSource(url);
  source.onerror = () => { if (source.readyState === EventSource.CLOSED) ui.notes.push('closed by server'); };
  source.onmessage = (event) => {
    let data;
    try { data = JSON.parse(event.data); } catch { return; }
    if (queryId && data.query_id && queryId !== data.query_id) return;
    processMessageByType(data, ui, () => source.close());
  };
  return source;
}

// Mirrors ManagedEventSource#processMessageByType and #handleResultBatch: result_batch renders each of
// data.results, error and ask_user show data.message, complete closes the source; the rest is ignored.
function processMessageByType(data, ui, close) {
  if (!data || typeof data !== 'object') return;
  switch (data.message_type) {
    case 'result_batch':
      if (!Array.isArray(data.results)) return;
      for (const item of data.results) if (item && typeof item === 'object') ui.render(item);
      break;
    case 'ask_user':
    case 'summary':
    case 'no_results':
      if (typeof data.message === 'string') ui.notes.push(data.message);
      break;
    case 'error':
      if (typeof data.message === 'string') ui.notes.push('Error: ' + data.message);
      break;
    case 'complete':
      if (ui.noResponse()) ui.notes.push('No results were found');
      close();
      ui.closed = true;
      break;
    default:
      break;
  }
}

// Mirrors UnifiedChatInterface#connectSSE and #handleStreamData (static/chat-interface-unified.js) with
// ChatUICommon#processMessageByType (static/chat-ui-common.js), the newer protocol: begin- and
// end-nlweb-response delimit the answer, each result message renders data.content (an array, or one
// item), complete ends it.
function unifiedEventSource(url, ui) {
  const source = new EventSource(url);
  source.onmessage = (event) => {
    const data = JSON.parse(event.data);
    if (data.message_type === 'begin-nlweb-response') { ui.block = { query: data.query }; return; }
    if (data.message_type === 'end-nlweb-response') { ui.block = null; return; }
    if (!data.message_type) return;
    if (data.message_type === 'result' && data.content) {
      const items = Array.isArray(data.content) ? data.content : [data.content];
      for (const item of items) ui.render(item);
    }
    if (data.message_type === 'complete') { source.close(); ui.closed = true; }
  };
  source.onerror = () => source.close();
  return source;
}

// Mirrors JsonRenderer#createJsonItemHtml (static/json-renderer.js): the title links item.url with
// item.name, the description is item.description, the visible site is item.site, the type comes from
// item.schema_object['@type'].
function makeUi() {
  const list = document.getElementById('results');
  const ui = {
    notes: [], closed: false, block: null,
    noResponse: () => list.children.length === 0,
    render(item) {
      const div = document.createElement('div');
      div.className = 'item-container';
      div.dataset.type = (item.schema_object && item.schema_object['@type']) || '';
      const title = document.createElement('a');
      title.className = 'item-title-link';
      title.href = item.url ? item.url : '#';
      title.textContent = item.name ? item.name : item.url;
      const description = document.createElement('div');
      description.className = 'item-description';
      description.textContent = item.description || '';
      const site = document.createElement('span');
      site.className = 'item-site';
      site.textContent = item.site || '';
      div.append(title, description, site);
      list.appendChild(div);
    },
  };
  return ui;
}

function rendered(ui) {
  return {
    items: [...document.querySelectorAll('.item-container')].map((div) => ({
      name: div.querySelector('.item-title-link').textContent,
      href: div.querySelector('.item-title-link').href,
      description: div.querySelector('.item-description').textContent,
      site: div.querySelector('.item-site').textContent,
      type: div.dataset.type,
    })),
    notes: ui.notes,
    closed: ui.closed,
  };
}
`;

const PAGE = `<!doctype html><html><head><title>NLWeb UI</title></head><body><div id="results"></div><script>${CLIENT}</script></body></html>`;
let uiServer: Server;
let uiOrigin: string;
beforeAll(async () => {
  uiServer = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  await new Promise<void>((resolve) => uiServer.listen(0, '127.0.0.1', resolve));
  uiOrigin = `http://127.0.0.1:${(uiServer.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => uiServer.close(() => resolve())));

async function openUi(page: Page): Promise<void> {
  await page.goto(`${uiOrigin}/`);
}

/**
 * What went wrong on the page, but a stream closed by the UI on `complete` while the server was still
 * ending it, which Chromium logs as an aborted request.
 */
function unexpected(problems: string[]): string[] {
  return problems.filter((problem) => !/^request failed: \S+\/ask\?\S+ net::ERR_ABORTED$/.test(problem));
}

/** Requests the page made to /ask: one each, since a UI that missed `complete` would reconnect and ask again. */
function askRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/ask') seen.push(request.url());
  });
  return seen;
}

async function jsonAnswer(query: string): Promise<{ results: { name: string; url: string; snippet: string; site: string }[] }> {
  return (await fetch(`${env.baseUrl}/ask?query=${encodeURIComponent(query)}`)).json() as never;
}

describe('an NLWeb UI, as the reference UIs consume /ask', () => {
  it('renders the results through ManagedEventSource (result_batch), with the query string chat-interface.js sends', async () => {
    const page = await env.browser.newPage();
    const problems = watchProblems(page);
    const asked = askRequests(page);
    await openUi(page);
    // The parameters ChatInterface#sendMessage builds (static/chat-interface.js), in its order.
    const queryId = `query_${Date.now()}_42`;
    const params = new URLSearchParams();
    params.append('query_id', queryId);
    params.append('query', 'openssl');
    params.append('site', 'all');
    params.append('generate_mode', 'list');
    params.append('prev', JSON.stringify([]));
    params.append('item_to_remember', '');
    params.append('context_url', '');
    const shown = (await page.evaluate(
      ({ url, queryId }) =>
        new Promise((resolve) => {
          const ui = (globalThis as any).makeUi();
          (globalThis as any).managedEventSource(url, queryId, ui);
          const wait = setInterval(() => {
            if (ui.closed) {
              clearInterval(wait);
              resolve((globalThis as any).rendered(ui));
            }
          }, 20);
        }),
      { url: `${env.baseUrl}/ask?${params}`, queryId },
    )) as Rendered;

    const json = await jsonAnswer('openssl');
    expect(shown.items.map((item) => item.name)).toEqual(json.results.map((result) => result.name));
    expect(shown.items.map((item) => item.href)).toEqual(json.results.map((result) => result.url));
    expect(shown.items.map((item) => item.description)).toEqual(json.results.map((result) => result.snippet));
    expect(new Set(shown.items.map((item) => `${item.site} ${item.type}`))).toEqual(new Set(['public-cve-records CreativeWork']));
    expect(shown.notes).toEqual([]);
    await page.waitForTimeout(300);
    expect(asked).toHaveLength(1);
    expect(unexpected(problems)).toEqual([]);
    await page.close();
  });

  it('renders the results through the newer protocol (begin/result/end), with fp-chat-interface.js parameters and a fallback mode', async () => {
    const page = await env.browser.newPage();
    const problems = watchProblems(page);
    const asked = askRequests(page);
    await openUi(page);
    // The parameters FPChatInterface#sendMessage builds (static/fp-chat-interface.js); `summarize` falls back to a list.
    const params = new URLSearchParams({ query: 'curl since 2024', generate_mode: 'summarize', display_mode: 'full', site: 'all' });
    params.append('prev', JSON.stringify(['openssl']));
    params.append('last_ans', JSON.stringify([{ title: 'CVE-2024-1234 (openssl)', url: 'https://example.org/' }]));
    params.append('thread_id', '1754500000000');
    const shown = (await page.evaluate(
      (url) =>
        new Promise((resolve) => {
          const ui = (globalThis as any).makeUi();
          (globalThis as any).unifiedEventSource(url, ui);
          const wait = setInterval(() => {
            if (ui.closed) {
              clearInterval(wait);
              resolve((globalThis as any).rendered(ui));
            }
          }, 20);
        }),
      `${env.baseUrl}/ask?${params}`,
    )) as Rendered;

    const json = await jsonAnswer('curl since 2024');
    expect(json.results.length).toBeGreaterThan(0);
    expect(shown.items.map((item) => [item.name, item.href, item.description])).toEqual(
      json.results.map((result) => [result.name, result.url, result.snippet]),
    );
    await page.waitForTimeout(300);
    expect(asked).toHaveLength(1);
    expect(unexpected(problems)).toEqual([]);
    await page.close();
  });

  it('gets the site list as FPChatInterface#loadSites reads /sites', async () => {
    const page = await env.browser.newPage();
    const problems = watchProblems(page);
    await openUi(page);
    const sites = await page.evaluate(async (origin) => {
      const response = await fetch(`${origin}/sites?streaming=false`);
      const data = (await response.json()) as { 'message-type'?: unknown; sites?: unknown };
      return data && data['message-type'] === 'sites' && Array.isArray(data.sites) ? data.sites : null;
    }, env.baseUrl);
    expect(sites).toEqual(['public-cve-records']);
    expect(problems).toEqual([]);
    await page.close();
  });
});
