// Issue 11: no request any surface accepts may stall the service. Under a load of valid requests, the
// worst request of each surface (the longest word, the largest body, the deepest JSON) is sent while a
// health check polls; the health check must not wait 50 ms longer than it does without it.

import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Running, startServer } from '../support/cli.js';

let server: Running;
let pool: Pool;
let stopLoad: () => Promise<void>;

beforeAll(async () => {
  server = await startServer(['--rate-limit-max', '0']);
  pool = new Pool(server.baseUrl, { connections: 8 });
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

/** The worst request each surface accepts, by what costs it most. */
const WORST: Record<string, () => Promise<number>> = {
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
