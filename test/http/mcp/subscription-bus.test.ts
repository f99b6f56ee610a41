// The subscription bus hands a resource's change only to the streams that named its URI, and the listen
// request is recognised however its method name is spelled in JSON.
import type { ServerEvent } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { SubscriptionBus } from '../../../src/http/mcp/subscription-bus.js';
import { listenRequest } from '../../../src/http/mcp/subscriptions.js';

describe('SubscriptionBus', () => {
  it('gives a resource_updated event to the listeners subscribed naming its URI, other events to all', () => {
    const bus = new SubscriptionBus((error) => {
      throw error;
    });
    const seen: Record<string, string[]> = { a: [], ab: [], none: [] };
    const listener = (name: string) => (event: ServerEvent) =>
      void seen[name]!.push(event.kind === 'resource_updated' ? event.uri : event.kind);
    const stopA = bus.within(['u:a'], () => bus.subscribe(listener('a')));
    bus.within(['u:a', 'u:b', 'u:b'], () => bus.subscribe(listener('ab')));
    bus.subscribe(listener('none'));
    expect([bus.follows('u:a'), bus.follows('u:b'), bus.follows('u:c')]).toEqual([true, true, false]);

    bus.publish({ kind: 'resource_updated', uri: 'u:a' });
    bus.publish({ kind: 'resource_updated', uri: 'u:b' });
    bus.publish({ kind: 'resource_updated', uri: 'u:c' });
    bus.publish({ kind: 'tools_list_changed' });
    expect(seen).toEqual({ a: ['u:a', 'tools_list_changed'], ab: ['u:a', 'u:b', 'tools_list_changed'], none: ['tools_list_changed'] });

    stopA();
    stopA();
    bus.publish({ kind: 'resource_updated', uri: 'u:a' });
    expect(seen.a).toEqual(['u:a', 'tools_list_changed']);
    expect(seen.ab).toEqual(['u:a', 'u:b', 'tools_list_changed', 'u:a']);
  });

  it('keeps the URIs of each request apart across awaits', async () => {
    const bus = new SubscriptionBus(() => undefined);
    const got: string[] = [];
    const later = (uri: string, ms: number) =>
      bus.within([uri], async () => {
        await new Promise((resolve) => setTimeout(resolve, ms));
        bus.subscribe((event) => void got.push(`${uri} <- ${event.kind === 'resource_updated' ? event.uri : ''}`));
      });
    await Promise.all([later('u:slow', 30), later('u:fast', 1)]);
    bus.publish({ kind: 'resource_updated', uri: 'u:slow' });
    expect(got).toEqual(['u:slow <- u:slow']);
  });
});

describe('listenRequest', () => {
  const body = (method: string) =>
    `{"jsonrpc":"2.0","id":7,"method":"${method}","params":{"notifications":{"resourceSubscriptions":["u:a",1,"u:b"]}}}`;

  it('reads the id and the URIs of a listen request, however its method is escaped', () => {
    for (const method of ['subscriptions/listen', 'subscriptions\\/listen', 'subscriptions/\\u006cisten']) {
      expect(listenRequest(body(method)), method).toEqual({ id: 7, uris: ['u:a', 'u:b'] });
    }
  });

  it('passes on anything else', () => {
    expect(listenRequest(body('tools/call'))).toBeUndefined();
    expect(listenRequest('{"method":"subscriptions/listen"')).toBeUndefined();
    expect(listenRequest('[{"method":"subscriptions/listen"}]')).toBeUndefined();
  });
});
