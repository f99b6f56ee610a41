// The bus the SDK's `subscriptions/listen` streams take their events from, indexed by resource URI. The
// SDK's own bus hands every event to every open stream, each of which then looks for the URI in its list:
// with a thousand streams of a hundred URIs, a baseline's thousands of changed records would cost seconds
// of one turn. Here a `resources/updated` event reaches only the streams that named its URI. A stream's
// listener is subscribed while the SDK serves its listen request, inside `within(uris, ...)`, so the
// request's URIs are known to the bus at that moment without the SDK telling them.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';

type Listener = (event: ServerEvent) => void;

export class SubscriptionBus implements ServerEventBus {
  readonly #onerror: (error: Error) => void;
  readonly #serving = new AsyncLocalStorage<readonly string[]>();
  readonly #listeners = new Set<Listener>();
  readonly #byUri = new Map<string, Set<Listener>>();

  constructor(onerror: (error: Error) => void) {
    this.#onerror = onerror;
  }

  /** Runs `serve` (the SDK serving a listen request that names `uris`): a listener it subscribes follows them. */
  within<T>(uris: readonly string[], serve: () => T): T {
    return this.#serving.run(uris, serve);
  }

  /** Whether an open stream follows `uri`. */
  follows(uri: string): boolean {
    return this.#byUri.has(uri);
  }

  subscribe(listener: Listener): () => void {
    const uris = [...new Set(this.#serving.getStore() ?? [])];
    this.#listeners.add(listener);
    for (const uri of uris) {
      let set = this.#byUri.get(uri);
      if (!set) {
        set = new Set();
        this.#byUri.set(uri, set);
      }
      set.add(listener);
    }
    let live = true;
    return () => {
      if (!live) return;
      live = false;
      this.#listeners.delete(listener);
      for (const uri of uris) {
        const set = this.#byUri.get(uri);
        if (set?.delete(listener) && set.size === 0) this.#byUri.delete(uri);
      }
    };
  }

  publish(event: ServerEvent): void {
    const listeners = event.kind === 'resource_updated' ? this.#byUri.get(event.uri) : this.#listeners;
    for (const listener of listeners ?? []) {
      try {
        listener(event);
      } catch (error) {
        this.#onerror(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }
}
