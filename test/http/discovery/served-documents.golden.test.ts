// The documents the service serves about itself, compared with goldens: a change of layout must not
// change them, and an intended change shows up here as a diff to review. `UPDATE_GOLDENS=1 npx vitest run
// test/served-documents.golden.test.ts` rewrites the goldens after an intended change.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../support/app.js';
import { repositoryUrl } from '../../support/paths.js';

const GOLDENS = repositoryUrl('test/fixtures/goldens/');

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

describe('served documents against their goldens', () => {
  it.each([
    ['/openapi.json', 'openapi.json'],
    ['/llms.txt', 'llms.txt'],
    ['/.well-known/api-catalog', 'api-catalog.json'],
  ])('%s is unchanged', async (url, file) => {
    const response = await app.inject({ url });
    expect(response.statusCode).toBe(200);
    const text = file.endsWith('.json') ? `${JSON.stringify(JSON.parse(response.body), null, 2)}\n` : response.body;
    const golden = new URL(file, GOLDENS);
    if (process.env.UPDATE_GOLDENS === '1') writeFileSync(golden, text);
    expect(existsSync(golden), `golden ${file} exists`).toBe(true);
    expect(text).toBe(readFileSync(golden, 'utf8'));
  });
});
