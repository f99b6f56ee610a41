// Route schemas are compiled at their first use, not as the server starts (http/lazy-schemas.ts): a route
// checks and serializes as an eagerly compiled one does, nothing is compiled before a request needs it,
// and what no request used is compiled once the server listens.
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createValidator } from '../../src/contract/index.js';
import { LazySchemas } from '../../src/http/lazy-schemas.js';
import { repositoryPath } from '../support/paths.js';

const QUERY = {
  type: 'object',
  properties: { limit: { type: 'integer', minimum: 1, default: 10 } },
  additionalProperties: false,
} as const;
const RESPONSE = { 200: { type: 'object', properties: { limit: { type: 'integer' } } } } as const;

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** An app of two routes with lazily compiled schemas, counting the request checks compiled. */
function lazyApp(): { app: FastifyInstance; schemas: LazySchemas; compiled: object[] } {
  const schemas = new LazySchemas();
  const compiled: object[] = [];
  const requests = createValidator('request');
  const built = Fastify({ ...schemas.options, logger: false });
  schemas.install(built, (schema) => {
    compiled.push(schema);
    return requests.compile(schema);
  });
  for (const path of ['/first', '/second'])
    built.get(path, { schema: { querystring: QUERY, response: RESPONSE } }, async (request) => ({
      ...(request.query as object),
      unlisted: 'not in the response schema',
    }));
  app = built;
  return { app: built, schemas, compiled };
}

describe('route schemas compiled at their first use', () => {
  it('check, coerce, fill in and serialize as the schemas say, compiling only the route asked', async () => {
    const { app, schemas, compiled } = lazyApp();
    await app.ready();
    expect(compiled).toEqual([]);
    const waiting = schemas.pending;
    expect(waiting).toBeGreaterThanOrEqual(4);

    expect((await app.inject('/first?limit=5')).json()).toEqual({ limit: 5 });
    expect((await app.inject('/first')).json()).toEqual({ limit: 10 });
    const refused = await app.inject('/first?limit=0');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/querystring\/limit must be >= 1/);
    expect((await app.inject('/first?other=1')).statusCode).toBe(400);
    expect(compiled).toHaveLength(1);
    expect(schemas.pending).toBe(waiting - 2);
  });

  it('compiles what no request used once the server listens', async () => {
    const { app, schemas, compiled } = lazyApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    await expect.poll(() => schemas.pending).toBe(0);
    // Each route's check and the one of the HEAD route Fastify adds beside it.
    expect(compiled).toHaveLength(4);
    expect((await app.inject('/second?limit=3')).json()).toEqual({ limit: 3 });
  });

  // In a process of its own: what is asserted is that the process ends, with the schema's error.
  for (const bad of ['first', 'second'])
    it(`stops the server when a schema does not compile (the ${bad} to be compiled once listening)`, async () => {
      const dist = (path: string) => JSON.stringify(pathToFileURL(repositoryPath(`dist/${path}`)).href);
      const invalid = { type: 'object', properties: { limit: { type: 'a type that does not exist' } } };
      const script = `
        const { default: Fastify } = await import('fastify');
        const { createValidator } = await import(${dist('contract/index.js')});
        const { LazySchemas } = await import(${dist('http/lazy-schemas.js')});
        const schemas = new LazySchemas();
        const requests = createValidator('request');
        const app = Fastify({ ...schemas.options, logger: false });
        schemas.install(app, (schema) => requests.compile(schema));
        for (const path of ['/first', '/second'])
          app.get(path, { schema: { querystring: path === '/${bad}' ? ${JSON.stringify(invalid)} : { type: 'object' } } }, async () => ({}));
        await app.listen({ port: 0, host: '127.0.0.1' });
        setTimeout(() => { console.log('still serving'); process.exit(0); }, 5000);`;
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: repositoryPath('.'), stdio: 'pipe' });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const code = await new Promise((resolve) => child.once('exit', resolve));
      expect(output).not.toContain('still serving');
      expect(output).toContain('a type that does not exist');
      expect(code).not.toBe(0);
    }, 30_000);
});
