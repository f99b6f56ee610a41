// Issue 24, item 2: a lone surrogate (half of a UTF-16 pair, which JSON may write as `"\ud800"`) in any
// argument of any surface is a client's input like any other: answered, never with a 500. (The catalog
// cannot hold one: the importer replaces them and the catalog check refuses them, see importer.test.ts.)
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../support/app.js';

const S = '\ud800';
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

const mcpHeaders = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
const tool = (name: string, args: Record<string, unknown>) =>
  ['/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, mcpHeaders] as const;
const message = (text: string) => ({ kind: 'message', role: 'user', messageId: S, contextId: S, parts: [{ kind: 'text', text }] });

const bodies: (readonly [path: string, body: unknown, headers?: Record<string, string>])[] = [
  ['/ask', { query: `curl ${S} openssl` }],
  ['/ask', { query: S, prev: [S], site: S }],
  tool('list_cve_records', { project: `x${S}` }),
  tool('list_cve_records', { project: `openssl${S}`, cursor: `${S}x` }),
  tool('search_cve_records', { query: `${S}openssl` }),
  tool('search', { query: S }),
  tool('fetch', { id: S }),
  tool('list_projects', { q: `open${S}` }),
  tool('list_cve_record_changes', { since: S }),
  ['/a2a', { jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: message(`zzq${S} opnssl`) } }],
  ['/a2a', { jsonrpc: '2.0', id: S, method: S, params: {} }],
  ['/api/v1/cve-records/batch', { recordIds: [S] }],
  ['/api/v1/cve-records/details/batch', { recordIds: [`CVE-2024-1234${S}`] }],
];

describe('a lone surrogate in a request', () => {
  it.each(bodies.map((entry) => [entry[0], JSON.stringify(entry[1]).slice(0, 90), entry] as const))(
    'POST %s %s is answered without a 500',
    async (_path, _shown, [path, body, headers]) => {
      const response = await app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/json', ...headers },
        payload: JSON.stringify(body),
      });
      expect(response.statusCode).toBeLessThan(500);
      expect(response.body).not.toMatch(/internal_error|"code":-32603/);
    },
  );
});
