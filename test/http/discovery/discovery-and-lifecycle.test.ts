// The spec's discovery documents and Versioning section.
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../support/app.js';

describe('API catalog (RFC 9727)', () => {
  it('is a linkset with its profile, pointing at the OpenAPI document, the docs, the policy and health', async () => {
    const app = await buildTestApp();
    const response = await app.inject('/.well-known/api-catalog');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
    const [entry] = response.json().linkset;
    expect(entry['service-desc'][0].href).toBe('http://cve.test/openapi.json');
    expect(entry.status[0].href).toBe('http://cve.test/api/v1/health');
    expect(entry['service-doc'][0].href).toBe('http://cve.test/docs');
    for (const rel of ['service-desc', 'service-doc', 'service-meta', 'status']) {
      const href = new URL(entry[rel][0].href);
      expect((await app.inject(href.pathname)).statusCode, rel).toBe(200);
    }
    expect((await app.inject({ method: 'HEAD', url: '/.well-known/api-catalog' })).statusCode).toBe(200);
  });

  it('is linked from / with rel="api-catalog"', async () => {
    const app = await buildTestApp();
    expect((await app.inject('/')).headers.link).toBe('<http://cve.test/.well-known/api-catalog>; rel="api-catalog"');
  });
});

describe('lifecycle (spec Versioning)', () => {
  it('publishes the policy as Markdown, stating v1 active and the 90-day notice', async () => {
    const app = await buildTestApp();
    const response = await app.inject('/api-policy.md');
    expect(response.headers['content-type']).toMatch(/^text\/markdown/);
    expect(response.body).toMatch(/v1 is \*\*active\*\*/);
    expect(response.body).toMatch(/90 days/);
  });

  it('states the rate limit in the policy and the OpenAPI description, and no limit when the operator turned it off', async () => {
    const read = async (app: Awaited<ReturnType<typeof buildTestApp>>) => {
      const policy = (await app.inject('/api-policy.md')).body;
      const description = (await app.inject('/openapi.json')).json().info.description as string;
      const headers = (await app.inject('/api/v1/health')).headers;
      await app.close();
      return { policy, description, headers };
    };
    const limited = await read(await buildTestApp({ config: { rateLimit: { max: 120, windowSeconds: 60 } } }));
    expect(limited.policy).toContain('may send 120 requests per 60 seconds');
    expect(limited.description).toContain('120 requests per 60-second window');
    expect(limited.headers['ratelimit-limit']).toBe('120');
    const off = await read(await buildTestApp({ config: { rateLimit: { max: 0, windowSeconds: 60 } } }));
    for (const text of [off.policy, off.description]) {
      expect(text).not.toMatch(/\b0 requests/);
      expect(text).toMatch(/no request limit of its own|None of this service's own/);
    }
    expect(off.headers['ratelimit-limit']).toBeUndefined();
  });

  it('sends no Deprecation, Sunset or Link while v1 is active', async () => {
    const app = await buildTestApp();
    const response = await app.inject('/api/v1/cve-records');
    for (const header of ['deprecation', 'sunset', 'link']) expect(response.headers[header]).toBeUndefined();
  });

  it('once deprecated, sends Deprecation (@epoch), Sunset (HTTP-date) and Link rel="deprecation" on every v1 200', async () => {
    const app = await buildTestApp({
      config: {
        lifecycle: {
          deprecation: new Date('2027-01-01T00:00:00Z'),
          sunset: new Date('2027-06-30T00:00:00Z'),
          successor: 'http://cve.test/api/v2',
        },
      },
    });
    for (const url of ['/api/v1/health', '/api/v1/cve-records', '/api/v1/cve-records/CVE-2021-44228']) {
      const response = await app.inject(url);
      expect(response.headers.deprecation).toBe('@1798761600');
      expect(response.headers.deprecation).toMatch(/^@[0-9]+$/);
      expect(response.headers.sunset).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
      expect(response.headers.link).toContain('<http://cve.test/api-policy.md>; rel="deprecation"');
      expect(response.headers.link).toContain('<http://cve.test/api/v2>; rel="successor-version"');
    }
    expect((await app.inject('/api/v1/cve-records/CVE-1999-0001')).headers.deprecation).toBeUndefined();
    expect((await app.inject('/openapi.json')).headers.deprecation).toBeUndefined();
    expect((await app.inject('/api-policy.md')).body).toMatch(/deprecated\*\* since 2027-01-01/);
  });
});
