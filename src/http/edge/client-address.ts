// Who the client is. The socket's peer, unless that peer is a proxy the operator trusts: then the
// forwarding header names the client, read from the right (nearest hop) and stopping at the first
// address that is not trusted. A forwarding header from anyone else is ignored, so it cannot be
// used to borrow another address's budget.

import type { IncomingHttpHeaders } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { TrustProxy } from '../../config.js';

export type TrustCheck = (address: string, hop: number) => boolean;

/** Parses `--trust-proxy`: `false`, a hop count, or a comma-separated list of addresses and CIDRs. */
export function parseTrustProxy(text: string): TrustProxy {
  const value = text.trim();
  if (value === '' || value === 'false' || value === 'none') return { kind: 'none' };
  if (/^\d+$/.test(value)) return Number(value) === 0 ? { kind: 'none' } : { kind: 'hops', hops: Number(value) };
  const list = value.split(',').map((part) => part.trim());
  for (const entry of list) {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = family === 6 ? 128 : 32;
    if (family === 0 || extra !== undefined || (prefix !== undefined && !(/^\d+$/.test(prefix) && Number(prefix) <= bits))) {
      throw new RangeError(`"${entry}" is not an IP address or CIDR range`);
    }
  }
  return { kind: 'addresses', list };
}

export function compileTrust(trust: TrustProxy): TrustCheck {
  if (trust.kind === 'none') return () => false;
  if (trust.kind === 'hops') return (_address, hop) => hop < trust.hops;
  const blocks = new BlockList();
  for (const entry of trust.list) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    blocks.addSubnet(address, prefix === undefined ? (type === 'ipv6' ? 128 : 32) : Number(prefix), type);
  }
  return (address) => {
    const plain = unmapIPv4(address);
    const family = isIP(plain);
    return family !== 0 && blocks.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * Sets who sent a request (`request.client`) and whether a trusted proxy asks on its own behalf
 * (`request.fromTrustedProxy`), under the operator's trust: run by the edge's onRequest hook (edge.ts).
 */
export function clientAddressOf(trust: TrustProxy): (request: FastifyRequest) => void {
  const check = compileTrust(trust);
  return (request) => {
    // A peer that hung up before its request got here (a proxy's timeout, under load) has no address left
    // on the socket (Fastify's ip is then undefined): an unknown peer, trusted for nothing. Its answer goes nowhere.
    const peer: string = (request.ip as string | undefined) ?? '';
    request.client = clientAddress(peer, request.headers, check);
    // Only a proxy named by address: with a hop count every peer counts as a proxy, so none is exempt.
    request.fromTrustedProxy = trust.kind === 'addresses' && check(unmapIPv4(peer), 0) && forwardedChain(request.headers).length === 0;
  };
}

/** The client's address: the socket peer, or the nearest untrusted hop named by a trusted proxy. */
export function clientAddress(peer: string, headers: IncomingHttpHeaders, trust: TrustCheck): string {
  let address = unmapIPv4(peer);
  if (!trust(address, 0)) return address;
  const chain = forwardedChain(headers);
  for (let hop = 0; hop < chain.length; hop++) {
    const next = chain[chain.length - 1 - hop] as string;
    if (isIP(next) === 0) return address; // an unparsable hop ends what can be believed
    address = next;
    if (!trust(address, hop + 1)) return address;
  }
  return address;
}

/** Addresses from `Forwarded` (RFC 7239) if present, else `X-Forwarded-For`, client first. */
function forwardedChain(headers: IncomingHttpHeaders): string[] {
  const forwarded = headers.forwarded;
  if (forwarded) return forwarded.split(',').map((element) => unmapIPv4(nodeAddress(forwardedFor(element))));
  const xff = headers['x-forwarded-for'];
  const text = Array.isArray(xff) ? xff.join(',') : xff;
  return text ? text.split(',').map((part) => unmapIPv4(nodeAddress(part.trim()))) : [];
}

/** The `for=` value of one Forwarded element, unquoted (`for="198.51.100.7:4711"`, `for="[2001:db8::1]"`). */
function forwardedFor(element: string): string {
  for (const pair of element.split(';')) {
    const equals = pair.indexOf('=');
    if (equals < 0 || pair.slice(0, equals).trim().toLowerCase() !== 'for') continue;
    const value = pair.slice(equals + 1).trim();
    return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value;
  }
  return '';
}

/**
 * The address of a node name (RFC 7239 §6): `[v6]` or `[v6]:port`, `v4` or `v4:port`. An unbracketed
 * value with several colons is an IPv6 address as some proxies write it.
 */
function nodeAddress(node: string): string {
  if (node.startsWith('[')) {
    const end = node.indexOf(']');
    return end > 0 ? node.slice(1, end) : '';
  }
  const colon = node.indexOf(':');
  return colon >= 0 && node.indexOf(':', colon + 1) < 0 ? node.slice(0, colon) : node;
}

function unmapIPv4(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/**
 * The key an address is limited under. IPv4 addresses stand alone; an IPv6 client usually owns a whole
 * /64, so each /64 shares one budget, or one host could rotate through 2^64 addresses.
 */
export function rateKey(address: string): string {
  // Every IPv6 address has a colon: an IPv4 address is its own key without asking isIP.
  if (!address.includes(':') || isIP(address) !== 6) return address;
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

function expandIPv6(address: string): string[] {
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4 style) takes two groups.
  const last = right.length ? right : left;
  if (last.length && last[last.length - 1]!.includes('.')) {
    const [a, b, c, d] = last.pop()!.split('.').map(Number) as [number, number, number, number];
    last.push(((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
  }
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((group) => parseInt(group, 16).toString(16));
}
