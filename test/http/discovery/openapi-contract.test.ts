// Every response of every operation, successes and errors, checked against the served OpenAPI document.
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../src/contract/index.js';
import { buildTestApp } from '../../support/app.js';
import { OpenApiValidator } from '../../support/openapi-validator.js';

let app: FastifyInstance;
let doc: Record<string, any>;
let contract: OpenApiValidator;

beforeAll(async () => {
  app = await buildTestApp();
  doc = (await app.inject('/openapi.json')).json();
  contract = new OpenApiValidator(doc);
});
afterAll(() => app.close());

type Case = [path: string, method: 'GET' | 'POST', url: string, body?: unknown, headers?: Record<string, string>];

const cases: Case[] = [
  ['/api/v1/health', 'GET', '/api/v1/health'],
  ['/api/v1/health', 'GET', '/api/v1/health?ignored=1'],
  ['/api/v1/capabilities', 'GET', '/api/v1/capabilities'],
  ['/api/v1/sandbox', 'GET', '/api/v1/sandbox'],
  ['/api/v1/cve-records', 'GET', '/api/v1/cve-records'],
  ['/api/v1/cve-records', 'GET', '/api/v1/cve-records?limit=1&status=assigned-no-public-record'],
  ['/api/v1/cve-records', 'GET', '/api/v1/cve-records?project=nobody'],
  ['/api/v1/cve-records', 'GET', '/api/v1/cve-records?limit=0'],
  ['/api/v1/cve-records', 'GET', '/api/v1/cve-records?unknown=1'],
  ['/api/v1/cve-records', 'GET', '/api/v1/cve-records?cursor=bad'],
  ['/api/v1/cve-records/{recordId}', 'GET', '/api/v1/cve-records/CVE-2021-44228'],
  ['/api/v1/cve-records/{recordId}', 'GET', '/api/v1/cve-records/CVE-2023-0001'],
  ['/api/v1/cve-records/{recordId}', 'GET', '/api/v1/cve-records/CVE-1999-0001'],
  ['/api/v1/cve-records/{recordId}', 'GET', '/api/v1/cve-records/nonsense'],
  ['/api/v1/cve-records/batch', 'POST', '/api/v1/cve-records/batch', { recordIds: ['CVE-2021-44228', 'CVE-1999-0001'] }],
  ['/api/v1/cve-records/batch', 'POST', '/api/v1/cve-records/batch', { recordIds: [] }],
  ['/api/v1/cve-records/batch', 'POST', '/api/v1/cve-records/batch', '{', { 'content-type': 'application/json' }],
  ['/ask', 'GET', '/ask?query=CVE-2021-44228'],
  ['/ask', 'GET', '/ask'],
  ['/ask', 'GET', `/ask?query=${'x'.repeat(600)}`],
  ['/ask', 'GET', '/ask?nope=1'],
  ['/feeds/records.atom', 'GET', '/feeds/records.atom?nope=1'],
  ['/feeds/records.atom', 'GET', '/feeds/records.atom?project=a&project=b'],
];

describe('the served OpenAPI document', () => {
  it('is OpenAPI 3.1.0, API version 1.0.0, with the seven operations of the spec, its compatible additions and no security requirement', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.security).toBeUndefined();
    const ids = Object.values(doc.paths)
      .flatMap((item: any) => Object.values(item).map((op: any) => op.operationId))
      .filter(Boolean);
    expect(ids.sort()).toEqual(
      [
        'batchGetPublicCveRecords',
        'getAgentApiHealth',
        'getPublicApiSandbox',
        'getPublicCveRecord',
        'getServiceCapabilities',
        'listNlwebSites',
        'listPublicCveRecords',
        'searchPublicRecordsWithNlweb',
        'searchPublicRecordsWithNlwebPost',
        // Compatible additions within v1.
        'listPublicCveRecordChanges',
        'streamPublicCveRecordChanges',
        'exportPublicCveRecords',
        'getPublishedRecordsFeed',
        'getPublicCveRecordDetails',
        'batchGetPublicCveRecordDetails',
        'listProjects',
        'batchCheckVersions',
      ].sort(),
    );
  });

  // Timeouts, oversized URLs or headers, the limit and failures can meet any request.
  const anyRequest = [408, 414, 429, 431, 500];
  it.each([
    ['/api/v1/cve-records', 'get', [200, 304, 400, 404, 405, ...anyRequest]],
    ['/api/v1/cve-records/{recordId}', 'get', [200, 304, 400, 404, 405, ...anyRequest]],
    ['/api/v1/cve-records/batch', 'post', [200, 400, 404, 405, ...anyRequest]],
    ['/ask', 'get', [200, 400, 404, 405, ...anyRequest]],
    ['/api/v1/health', 'get', [200, 400, 405, ...anyRequest]],
    ['/api/v1/cve-records/changes', 'get', [200, 304, 400, 405, ...anyRequest]],
    ['/api/v1/cve-records/export', 'get', [200, 304, 400, 405, ...anyRequest]],
    ['/api/v1/projects', 'get', [200, 304, 400, 405, ...anyRequest]],
    ['/api/v1/cve-records/version-checks/batch', 'post', [200, 400, 405, ...anyRequest]],
    ['/feeds/records.atom', 'get', [200, 304, 400, 405, ...anyRequest]],
  ])('documents the status codes of %s %s (spec rule 5)', (path, method, statuses) => {
    expect(contract.documentedStatuses(path, method).sort()).toEqual(statuses.sort());
  });

  it('documents 400 for health, capabilities, sandbox and get-one, which a malformed request gets (issue 11, item 11)', async () => {
    const paths = [
      ['/api/v1/health', '/api/v1/health'],
      ['/api/v1/capabilities', '/api/v1/capabilities'],
      ['/api/v1/sandbox', '/api/v1/sandbox'],
      ['/api/v1/cve-records/{recordId}', '/api/v1/cve-records/CVE-2024-50000'],
    ];
    const server = await buildTestApp();
    await server.listen({ host: '127.0.0.1', port: 0 });
    try {
      for (const [path, url] of paths) {
        // A Content-Length that is not a number: node:http refuses it before any route, as bad_request.
        const response = await rawRequest(
          (server.server.address() as { port: number }).port,
          `GET ${url} HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n`,
        );
        expect(response.statusCode, url).toBe(400);
        expect(JSON.parse(response.body).error.code).toBe('bad_request');
        contract.check(path!, 'get', response);
      }
    } finally {
      await server.close();
    }
  });

  it("types /ask's mode as the values it accepts (issue 11, item 11): NLWeb's modes, alone or comma-separated (issue 16)", () => {
    for (const name of ['mode', 'generate_mode']) {
      const pattern = new RegExp(doc.paths['/ask'].get.parameters.find((p: any) => p.name === name).schema.pattern);
      for (const accepted of ['list', 'none', 'summarize', 'generate', 'list, summarize']) expect(accepted).toMatch(pattern);
      for (const refused of ['chat', 'list;summarize', '']) expect(refused).not.toMatch(pattern);
    }
  });

  it('gives every operation the lifecycle extension: active, 90 days minimum sunset notice', () => {
    for (const item of Object.values(doc.paths) as any[]) {
      for (const op of Object.values(item) as any[]) expect(op['x-lifecycle']).toEqual({ status: 'active', minimumSunsetNoticeDays: 90 });
    }
  });

  it('documents 429 with Retry-After and the RateLimit headers', () => {
    const headers = Object.keys(doc.components.responses.TooManyRequests.headers);
    expect(headers).toEqual(
      expect.arrayContaining(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'RateLimit']),
    );
  });

  it('lists every error code of the catalog in its description', () => {
    for (const code of ERROR_CODES) expect(doc.info.description).toContain(`\`${code}\``);
  });

  it('closes every closed object of the spec', () => {
    for (const name of [
      'CveRecord',
      'Pagination',
      'CveRecordPage',
      'BatchRequest',
      'BatchResponse',
      'Health',
      'Sandbox',
      'NlwebResult',
      'ErrorResponse',
    ]) {
      expect(doc.components.schemas[name].additionalProperties, name).toBe(false);
    }
    expect(doc.components.schemas.Capabilities.additionalProperties).toBe(true);
    expect(doc.components.schemas.NlwebResponse.additionalProperties).toBe(true);
  });

  it.each(cases)('%s %s: %s matches the document', async (path, method, url, body, headers) => {
    const response = await app.inject({
      method,
      url,
      ...(body === undefined
        ? {}
        : { payload: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } }),
    });
    contract.check(path, method, response);
  });

  it('passes redocly lint with no errors', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openapi-'));
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(doc));
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [join('node_modules', '@redocly', 'cli', 'bin', 'cli.js'), 'lint', '--config', 'redocly.yaml', '--format', 'stylish', file],
      { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    ).catch((error: { stdout: string; stderr: string }) => {
      throw new Error(`redocly lint failed:\n${error.stdout}\n${error.stderr}`);
    });
    // Exit 0 means no errors; the one expected warning is the POST form of /ask, which shares the
    // operationId of GET /ask in the spec and so has none of its own.
    expect(`${stdout}${stderr}`).toMatch(/valid/i);
    expect(`${stdout}${stderr}`).not.toMatch(/\berror\b/i);
  }, 60_000);
});

/** One raw HTTP/1.1 exchange, read until the server closes, as the contract checker reads a response. */
function rawRequest(port: number, text: string): Promise<{ statusCode: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      const [status, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ statusCode: Number(status!.split(' ')[1]), headers, body });
    });
  });
}
