// Issue 3, "who is the client": the socket peer by default; forwarding headers only from trusted
// proxies; IPv6 clients grouped per /64.

import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { clientAddress, clientAddressOf, compileTrust, parseTrustProxy, rateKey } from '../../../src/http/edge/client-address.js';
import { buildTestApp } from '../../support/app.js';

describe('--trust-proxy parsing', () => {
  it('reads none, hop counts and address or CIDR lists', () => {
    expect(parseTrustProxy('false')).toEqual({ kind: 'none' });
    expect(parseTrustProxy('0')).toEqual({ kind: 'none' });
    expect(parseTrustProxy('2')).toEqual({ kind: 'hops', hops: 2 });
    expect(parseTrustProxy('10.0.0.0/8, 192.0.2.1,2001:db8::/32')).toEqual({
      kind: 'addresses',
      list: ['10.0.0.0/8', '192.0.2.1', '2001:db8::/32'],
    });
  });

  it.each(['10.0.0.0/33', 'proxy.internal', '10.0.0.1/8/1', '::1/129'])('refuses %s', (text) => {
    expect(() => parseTrustProxy(text)).toThrow(/not an IP address or CIDR/);
  });
});

describe('client address', () => {
  const trusted = compileTrust(parseTrustProxy('10.0.0.0/8'));

  it('is the socket peer when the peer is not a trusted proxy, whatever it forwards', () => {
    expect(clientAddress('198.51.100.7', { 'x-forwarded-for': '203.0.113.9' }, trusted)).toBe('198.51.100.7');
    expect(clientAddress('198.51.100.7', { forwarded: 'for=203.0.113.9' }, trusted)).toBe('198.51.100.7');
  });

  it('is the nearest untrusted hop named by a trusted proxy', () => {
    expect(clientAddress('10.0.0.2', { 'x-forwarded-for': '203.0.113.9' }, trusted)).toBe('203.0.113.9');
    // The client itself can prepend anything; only what trusted hops appended counts.
    expect(clientAddress('10.0.0.2', { 'x-forwarded-for': '1.1.1.1, 203.0.113.9, 10.0.0.5' }, trusted)).toBe('203.0.113.9');
  });

  it('reads RFC 7239 Forwarded, with quoted IPv6 and ports', () => {
    expect(clientAddress('10.0.0.2', { forwarded: 'for="[2001:db8::1]:4711";proto=https' }, trusted)).toBe('2001:db8::1');
    expect(clientAddress('10.0.0.2', { forwarded: 'for=192.0.2.60;proto=http;by=203.0.113.43' }, trusted)).toBe('192.0.2.60');
  });

  it('reads Forwarded: for="198.51.100.7:4711", a quoted IPv4 address with a port (issue 11, item 7)', () => {
    expect(clientAddress('10.0.0.2', { forwarded: 'for="198.51.100.7:4711"' }, trusted)).toBe('198.51.100.7');
    expect(clientAddress('10.0.0.2', { forwarded: 'proto=https; For="198.51.100.8:443", for=10.0.0.9' }, trusted)).toBe('198.51.100.8');
    expect(clientAddress('10.0.0.2', { 'x-forwarded-for': '198.51.100.9:5555' }, trusted)).toBe('198.51.100.9');
  });

  it('stops at an unparsable hop and keeps the last believable address', () => {
    expect(clientAddress('10.0.0.2', { forwarded: 'for=unknown' }, trusted)).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', { 'x-forwarded-for': 'garbage' }, trusted)).toBe('10.0.0.2');
  });

  it('counts hops when trusting by number', () => {
    const twoHops = compileTrust(parseTrustProxy('2'));
    expect(clientAddress('192.0.2.1', { 'x-forwarded-for': '203.0.113.1, 198.51.100.2, 192.0.2.9' }, twoHops)).toBe('198.51.100.2');
  });

  it('is no address, trusted for nothing, when the peer hung up before its request was routed (issue 28)', () => {
    // The deployment bench at 340,000 records: replicas starved of CPU took requests HAProxy had already given
    // up on; their sockets were closed, Fastify's request.ip undefined, and each such request logged a TypeError.
    const hungUp = { ip: undefined, headers: { 'x-forwarded-for': '203.0.113.9' } } as unknown as FastifyRequest;
    clientAddressOf(parseTrustProxy('127.0.0.1'))(hungUp);
    expect(hungUp.client).toBe('');
    expect(hungUp.fromTrustedProxy).toBe(false);
  });

  it('treats IPv4-mapped IPv6 peers as IPv4', () => {
    expect(clientAddress('::ffff:10.0.0.2', { 'x-forwarded-for': '203.0.113.9' }, trusted)).toBe('203.0.113.9');
    expect(clientAddress('::ffff:198.51.100.7', {}, trusted)).toBe('198.51.100.7');
  });
});

describe('rate-limit key', () => {
  it('keeps IPv4 addresses apart and groups IPv6 per /64', () => {
    expect(rateKey('203.0.113.9')).toBe('203.0.113.9');
    expect(rateKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(rateKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(rateKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateKey('2001:DB8:0001:0002::9')).toBe('2001:db8:1:2::/64');
    expect(rateKey('::1')).toBe('0:0:0:0::/64');
    expect(rateKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});

describe('forwarding headers over HTTP', () => {
  const limited = { rateLimit: { max: 2, windowSeconds: 60 } };

  it('from a trusted proxy, each forwarded client has its own budget', async () => {
    const app = await buildTestApp({ config: { ...limited, trustProxy: parseTrustProxy('127.0.0.1') } });
    const via = (client: string) =>
      app.inject({ url: '/api/v1/health', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': client } });
    expect([(await via('203.0.113.1')).statusCode, (await via('203.0.113.1')).statusCode, (await via('203.0.113.1')).statusCode]).toEqual([
      200, 200, 429,
    ]);
    expect((await via('203.0.113.2')).statusCode).toBe(200);
    await app.close();
  });

  it('from anyone else, a spoofed header borrows no budget', async () => {
    const app = await buildTestApp({ config: { ...limited, trustProxy: parseTrustProxy('10.0.0.0/8') } });
    const codes = [];
    for (let i = 0; i < 3; i++) {
      const response = await app.inject({
        url: '/api/v1/health',
        remoteAddress: '198.51.100.7',
        headers: { 'x-forwarded-for': `203.0.113.${i}`, forwarded: `for=203.0.113.${i}` },
      });
      codes.push(response.statusCode);
    }
    expect(codes).toEqual([200, 200, 429]);
    await app.close();
  });

  it('a proxy trusted by address asking on its own behalf (its health checks) is not counted (issue 28)', async () => {
    const app = await buildTestApp({ config: { ...limited, trustProxy: parseTrustProxy('127.0.0.1') } });
    const check = () => app.inject({ url: '/api/v1/health', remoteAddress: '127.0.0.1' });
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await check()).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200]);
    expect((await check()).headers['ratelimit-limit']).toBeUndefined();
    // A client it forwards is counted as ever.
    const via = () => app.inject({ url: '/api/v1/health', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect([(await via()).statusCode, (await via()).statusCode, (await via()).statusCode]).toEqual([200, 200, 429]);
    await app.close();
  });

  it('with a hop count every peer may be a proxy: a request naming no client is counted', async () => {
    const app = await buildTestApp({ config: { ...limited, trustProxy: parseTrustProxy('1') } });
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await app.inject({ url: '/api/v1/health', remoteAddress: '198.51.100.7' })).statusCode);
    expect(codes).toEqual([200, 200, 429]);
    await app.close();
  });

  it('one IPv6 /64 shares a budget; the next /64 has its own', async () => {
    const app = await buildTestApp({ config: limited });
    const from = (remoteAddress: string) => app.inject({ url: '/api/v1/health', remoteAddress }).then((r) => r.statusCode);
    expect([await from('2001:db8:0:1::1'), await from('2001:db8:0:1::2'), await from('2001:db8:0:1:ffff::3')]).toEqual([200, 200, 429]);
    expect(await from('2001:db8:0:2::1')).toBe(200);
    await app.close();
  });
});
