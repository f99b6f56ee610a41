// Issue 28: health tells a proxy the truth. A replica that cannot reach its source of records (it serves
// its last version and misses changes) answers health with the one error the spec leaves it, 500
// source_unreachable, and healthy again once it reaches it; its records keep being answered meanwhile.
import { describe, expect, it } from 'vitest';
import { buildTestApp, fixtureOrder } from '../../support/app.js';

describe('health and the source of records', () => {
  it('is 500 source_unreachable while the source cannot be reached, 200 again once it can; records answer throughout', async () => {
    let reachable = true;
    const app = await buildTestApp({ source: { reachable: () => reachable } });
    const health = () => app.inject({ url: '/api/v1/health' });
    expect((await health()).statusCode).toBe(200);

    reachable = false;
    const lost = await health();
    expect(lost.statusCode).toBe(500);
    expect(lost.json().error.code).toBe('source_unreachable');
    expect(lost.headers['cache-control']).toBe('no-store');
    expect((await app.inject({ url: `/api/v1/cve-records/${fixtureOrder[0]}` })).statusCode).toBe(200);

    reachable = true;
    expect((await health()).json()).toMatchObject({ status: 'ok', readOnly: true });
    await app.close();
  });

  it('the MCP service info says the same as health', async () => {
    const app = await buildTestApp({ source: { reachable: () => false } });
    const call = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_service_info', arguments: {} } },
    });
    expect(call.body).toContain('source_unreachable');
    await app.close();
  });
});
