// Random paths, query strings, headers and bodies: never a 500, every error an ErrorResponse, and
// only status codes the document lists for the operation (or 404/405 off the documented paths).
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../support/app.js';
import { OpenApiValidator } from '../support/openapi-validator.js';

let app: FastifyInstance;
let contract: OpenApiValidator;
beforeAll(async () => {
  app = await buildTestApp();
  contract = new OpenApiValidator((await app.inject('/openapi.json')).json());
});
afterAll(() => app.close());

const templates: Array<[template: string, pattern: RegExp]> = [
  ['/api/v1/cve-records/batch', /^\/api\/v1\/cve-records\/batch$/],
  ['/api/v1/cve-records/{recordId}', /^\/api\/v1\/cve-records\/[^/]+$/],
  ['/api/v1/cve-records', /^\/api\/v1\/cve-records$/],
  ['/api/v1/health', /^\/api\/v1\/health$/],
  ['/api/v1/capabilities', /^\/api\/v1\/capabilities$/],
  ['/api/v1/sandbox', /^\/api\/v1\/sandbox$/],
  ['/ask', /^\/ask$/],
];

const segment = fc.oneof(
  fc.constantFrom('api', 'v1', 'cve-records', 'batch', 'health', 'ask', 'CVE-2021-44228', '..', '%2e%2e', '%00', '%ZZ', '', 'openapi.json'),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);
const path = fc.oneof(
  fc.array(segment, { maxLength: 5 }).map((parts) => `/${parts.join('/')}`),
  fc.constantFrom('/api/v1/cve-records', '/api/v1/cve-records/batch', '/ask', '/api/v1/cve-records/CVE-2024-1234'),
);
const queryKey = fc.oneof(
  fc.constantFrom('limit', 'cursor', 'project', 'status', 'query', 'stream', '__proto__', 'constructor'),
  fc.string({ maxLength: 8 }),
);
const queryValue = fc.oneof(
  fc.constantFrom('1', '0', '-1', '100', '101', '1e3', 'NaN', 'true', 'public', 'assigned-no-public-record', 'openssl', '', '%', '%ZZ'),
  fc.string({ maxLength: 30 }),
);
const query = fc
  .array(fc.tuple(queryKey, queryValue), { maxLength: 4 })
  .map((pairs) =>
    pairs.length ? `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${/^%/.test(v) ? v : encodeURIComponent(v)}`).join('&')}` : '',
  );
const body = fc.oneof(
  fc.constant(undefined),
  fc.json().map((text) => text),
  fc
    .record({ recordIds: fc.array(fc.oneof(fc.constant('CVE-2021-44228'), fc.string({ maxLength: 20 })), { maxLength: 60 }) })
    .map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 50 }),
);
const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'application/xml',
);
const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS');
const header = fc.tuple(
  fc.constantFrom('accept', 'idempotency-key', 'if-none-match', 'origin', 'x-forwarded-for', 'cookie'),
  fc.string({ maxLength: 300 }).filter((v) => /^[\x20-\x7e]*$/.test(v)),
);

describe('robustness under random requests', () => {
  it('never answers 500, always with an ErrorResponse and a documented status', async () => {
    await fc.assert(
      fc.asyncProperty(method, path, query, body, contentType, fc.array(header, { maxLength: 3 }), async (m, p, q, b, ct, hs) => {
        const headers: Record<string, string> = Object.fromEntries(hs);
        if (ct) headers['content-type'] = ct;
        const response = await app.inject({
          method: m as 'GET',
          url: p + q,
          headers,
          ...(b !== undefined && m !== 'GET' && m !== 'HEAD' ? { payload: b } : {}),
        });
        expect(response.statusCode, `${m} ${p}${q}`).toBeLessThan(500);
        if (m === 'OPTIONS') return;
        // inject resolves dot segments (also percent-encoded ones) as a URL parser does; so does the oracle.
        const pathOnly = new URL(`http://x${p}`).pathname;
        const template = templates.find(([, pattern]) => pattern.test(pathOnly))?.[0];
        const documented = template ? contract.documentedStatuses(template, m === 'HEAD' ? 'GET' : m) : [];
        if (template && documented.length && m !== 'HEAD') {
          if (template === '/ask' && response.headers['content-type']?.toString().startsWith('text/event-stream')) return;
          contract.check(template, m, response);
        } else if (response.statusCode >= 400 && m !== 'HEAD') {
          expect([404, 405]).toContain(response.statusCode);
          const error = response.json();
          expect(error.requestId).toBe(response.headers['x-request-id']);
          expect(typeof error.error.code).toBe('string');
        }
      }),
      { numRuns: 600 },
    );
  });
});
