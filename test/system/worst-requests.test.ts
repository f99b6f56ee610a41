// Issues 11 and 24: no request any surface accepts may stall the service. Under a load of valid requests,
// the worst request of each surface and of each path whose cost an input's size drives (the longest word,
// the most words that match nothing, the largest body, the deepest JSON, the longest forged cursor, the
// most ids) is sent while a health check polls; the health check must not wait 50 ms longer than it does
// without it.

import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Running, startServer } from '../support/cli.js';

let server: Running;
let pool: Pool;
let stopLoad: () => Promise<void>;

beforeAll(async () => {
  server = await startServer(['--rate-limit-max', '0']);
  pool = new Pool(server.baseUrl, { connections: 8 });
  const page = (await (await fetch(`${server.baseUrl}/api/v1/cve-records?limit=100`)).json()) as { records: { id: string }[] };
  batchIds = page.records.slice(0, 50).map((record) => record.id);
  // The search index is built after the server listens: wait for it, then warm every surface once.
  for (const worst of Object.values(WORST)) await worst();
  let running = true;
  const loops = Array.from({ length: 2 }, async () => {
    while (running) await (await pool.request({ path: '/api/v1/cve-records?limit=50', method: 'GET' })).body.dump();
  });
  stopLoad = async () => {
    running = false;
    await Promise.all(loops);
  };
}, 60_000);

afterAll(async () => {
  await stopLoad();
  await pool.close();
  await server.stop();
});

const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const MAX_BODY = 64 * 1024 - 200;

async function post(path: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  const response = await pool.request({ path, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  await response.body.dump();
  return response.statusCode;
}

const mcpHeaders = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
const a2aMessage = (text: string, extra = '') =>
  `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","role":"user","messageId":"m","parts":[{"kind":"text","text":${JSON.stringify(text)}}]${extra}}}}`;
/** 40 distinct words that most records hold (more than the 32 a query searches), then typos of them. */
const manyWords = (
  'remote code execution allows attacker attackers user users linux kernel memory leak buffer overflow heap use after free sql ' +
  'injection cross site scripting denial service authenticated privilege escalation arbitrary file upload path traversal ' +
  'information disclosure version versions prior earlier could via application server function execute ' +
  'remot cdoe executoin alows atacker linx kernal memroy overfow'
).slice(0, 512);

/** Distinct words that name nothing (no record, no project, no typo of one), as many as fit in `chars`. */
const unknownWords = (chars: number) => {
  let text = '';
  for (let i = 0; text.length < chars; i++) text += `zq${i.toString(36)}xv${'jkw'[i % 3]} `;
  return text.slice(0, chars).trim();
};
const mcpCall = (name: string, args: Record<string, unknown>) =>
  post('/mcp', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }), mcpHeaders);
async function get(path: string): Promise<number> {
  const response = await pool.request({ path, method: 'GET' });
  await response.body.dump();
  return response.statusCode;
}
/** Ids of records with the largest details the data has, as many as a batch takes (50). */
let batchIds: string[] = [];
const cwes = Array.from({ length: 60 }, (_, i) => `CWE-${i * 13 + 20}`).join(' ');

/** The worst request each surface accepts, by what costs it most. */
const WORST: Record<string, () => Promise<number>> = {
  // Issue 24, item 1: a message that matches nothing is looked up again as project names, word by word.
  'A2A: 50 KB of words that match nothing': () => post('/a2a', a2aMessage(unknownWords(50_000))),
  'A2A: one word of 50 KB that matches nothing': () => post('/a2a', a2aMessage(`zq${'x'.repeat(50_000)}`)),
  'A2A: as many CWE ids as fit': () => post('/a2a', a2aMessage(cwes.repeat(100).slice(0, 50_000))),
  'MCP list_cve_records: an unknown project of 1,000 characters in one word': () =>
    mcpCall('list_cve_records', { project: `zq${'x'.repeat(998)}` }),
  'MCP list_cve_records: an unknown project of 1,000 characters of words': () =>
    mcpCall('list_cve_records', { project: unknownWords(1000) }),
  'MCP list_cve_record_changes: the longest since, forged': () => mcpCall('list_cve_record_changes', { since: 'A'.repeat(200) }),
  'MCP list_projects: the longest q of words': () => mcpCall('list_projects', { q: unknownWords(200) }),
  'MCP search_cve_records: the longest query that matches nothing': () => mcpCall('search_cve_records', { query: unknownWords(512) }),
  'MCP batch_get_cve_records: the largest batch': () => mcpCall('batch_get_cve_records', { recordIds: batchIds }),
  'REST list: the longest unknown project': () => get(`/api/v1/cve-records?project=${'x'.repeat(1000)}`),
  'REST list: the longest cursor, forged': () => get(`/api/v1/cve-records?cursor=${'A'.repeat(200)}`),
  'REST projects: the longest q in one word': () => get(`/api/v1/projects?q=${'x'.repeat(200)}`),
  'REST projects: the longest q of words': () => get(`/api/v1/projects?q=${encodeURIComponent(unknownWords(200))}`),
  'REST projects: the longest cursor, forged': () => get(`/api/v1/projects?cursor=${'A'.repeat(200)}`),
  'REST changes: the longest since, forged': () => get(`/api/v1/cve-records/changes?since=${'A'.repeat(200)}`),
  'REST batch: the most ids, with details': () => post('/api/v1/cve-records/details/batch', JSON.stringify({ recordIds: batchIds })),
  // Issue 27: each check walks the project's records; the largest project, versions no range places, unknowns listed.
  'REST version checks: 100 distinct checks of the largest project': () =>
    post(
      '/api/v1/cve-records/version-checks/batch',
      JSON.stringify({
        queries: Array.from({ length: 100 }, (_, i) => ({ project: 'Linux', version: `${'9.'.repeat(60)}${i}` })),
        includeUnknown: true,
      }),
    ),
  'MCP list_cve_records: the largest project at a version no range places, unknowns too': () =>
    mcpCall('list_cve_records', { project: 'Linux', version: `${'9.'.repeat(63)}9`, include_unknown: true, limit: 100 }),
  '/ask GET: the longest query that matches nothing': () => get(`/ask?query=${encodeURIComponent(unknownWords(512))}`),
  '/ask GET: as many CVE ids as are looked up, and more': () =>
    get(
      `/ask?query=${encodeURIComponent(
        Array.from({ length: 60 }, (_, i) => `CVE-2024-${1000 + i}`)
          .join(' ')
          .slice(0, 512),
      )}`,
    ),
  '/ask GET: as many CWE ids as fit': () => get(`/ask?query=${encodeURIComponent(cwes.slice(0, 512))}`),
  'page: the longest unknown project in the project field': () => get(`/?project=${'x'.repeat(1000)}`),
  'page: the longest query that matches nothing': () => get(`/?query=${encodeURIComponent(unknownWords(512))}`),
  'feed: the longest unknown project': () => get(`/feeds/records.atom?project=${'x'.repeat(1000)}`),
  'A2A: one word as long as the body allows': () => post('/a2a', a2aMessage('l'.repeat(MAX_BODY - 200))),
  'A2A: the deepest JSON': () => post('/a2a', a2aMessage('x', `,"metadata":{"a":${deep((MAX_BODY - 300) / 2)}}`)),
  'A2A: as many distinct words as fit': () => post('/a2a', a2aMessage(manyWords)),
  'MCP: the deepest JSON': () =>
    post(
      '/mcp',
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_cve_records","arguments":{"query":"x","a":${deep((MAX_BODY - 300) / 2)}}}}`,
      mcpHeaders,
    ),
  'MCP: the longest query of common words': () =>
    post(
      '/mcp',
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_cve_records', arguments: { query: manyWords.slice(0, 512) } },
      }),
      mcpHeaders,
    ),
  '/ask GET: the longest word': async () => {
    const response = await pool.request({ path: `/ask?query=${'l'.repeat(512)}`, method: 'GET' });
    await response.body.dump();
    return response.statusCode;
  },
  '/ask GET: the longest query of common words': async () => {
    const response = await pool.request({ path: `/ask?query=${encodeURIComponent(manyWords.slice(0, 512))}`, method: 'GET' });
    await response.body.dump();
    return response.statusCode;
  },
  '/ask POST: the deepest JSON': () => post('/ask', `{"query":"x","prev":${deep((MAX_BODY - 100) / 2)}}`),
  '/ask POST: the largest body': () =>
    post('/ask', JSON.stringify({ query: 'l'.repeat(512), prev: 'p'.repeat(2048), site: 's'.repeat(200) })),
};

/** The slowest health check answered while `work` runs (polled as fast as answers come). */
async function slowestHealthDuring(work: () => Promise<unknown>): Promise<number> {
  let slowest = 0;
  let done = false;
  const poll = (async () => {
    while (!done) {
      const started = performance.now();
      await (await pool.request({ path: '/api/v1/health', method: 'GET' })).body.dump();
      slowest = Math.max(slowest, performance.now() - started);
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 20));
  await work();
  await new Promise((resolve) => setTimeout(resolve, 20));
  done = true;
  await poll;
  return slowest;
}

describe('the worst request of each surface, under load (issue 11)', () => {
  it.each(Object.keys(WORST))('%s delays a concurrent health check by less than 50 ms', async (name) => {
    // Best of three: one run can meet a pause of the shared 2-core machine that has nothing to do with it.
    const delays: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const baseline = await slowestHealthDuring(() => new Promise((resolve) => setTimeout(resolve, 60)));
      let status = 0;
      const during = await slowestHealthDuring(async () => (status = await WORST[name]!()));
      expect(status).toBeLessThan(500);
      delays.push(during - baseline);
      if (during - baseline < 50) break;
    }
    expect(Math.min(...delays)).toBeLessThan(50);
  });
});
