// Resource subscriptions as changes land. A 2026-07-28 client opens `subscriptions/listen` naming the
// resource URIs it follows; the SDK holds that stream and delivers `notifications/resources/updated` for
// each URI published to the streams that named it (subscription-bus.ts). For each batch of landed changes
// this publishes the record URIs and project URIs that are both changed and followed: a swap costs its size
// in map lookups, and each notification the streams it reaches, never the corpus nor every stream.
import type { ServerNotifier } from '@modelcontextprotocol/server';
import type { ChangeFollower, LandedChanges } from '../../core/change-follower.js';
import { projectUri, recordUri } from '../shared/resource-uris.js';
import type { SubscriptionBus } from './subscription-bus.js';

/** Resource URIs one subscription may name: each event is matched against a stream's list in full. */
export const MAX_SUBSCRIBED_URIS = 100;

const LISTEN_METHOD = 'subscriptions/listen';

/** A `subscriptions/listen` request: its JSON-RPC id and the resource URIs it names. */
export interface ListenRequest {
  readonly id: string | number | null;
  readonly uris: readonly string[];
}

/**
 * The `subscriptions/listen` request in `body`, or undefined when the body is not one (the SDK answers
 * whatever else it is). A body that cannot name the method (no `listen`, and no \u escape that could spell
 * it) is passed on without a second parse.
 */
export function listenRequest(body: string): ListenRequest | undefined {
  if (!body.includes('listen') && !body.includes('\\u')) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof message !== 'object' || message === null || (message as { method?: unknown }).method !== LISTEN_METHOD) return undefined;
  const { id, params } = message as { id?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } };
  const uris = params?.notifications?.resourceSubscriptions;
  return {
    id: typeof id === 'string' || typeof id === 'number' ? id : null,
    uris: Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === 'string') : [],
  };
}

export class ResourceSubscriptions {
  readonly #bus: SubscriptionBus;
  readonly #notify: ServerNotifier;
  /** One per open subscription: aborting it ends the stream (the SDK tears it down on its request's signal). */
  readonly #open = new Set<AbortController>();
  readonly #unfollow: () => void;

  constructor(changes: ChangeFollower, bus: SubscriptionBus, notify: ServerNotifier) {
    this.#bus = bus;
    this.#notify = notify;
    this.#unfollow = changes.follow((landed) => this.#landed(landed));
  }

  /** Counts a subscription's stream as open until the function returned is called (once is enough). */
  open(stream: AbortController): () => void {
    this.#open.add(stream);
    return () => {
      this.#open.delete(stream);
      stream.abort();
    };
  }

  /** Ends every subscription (the drain: clients listen again elsewhere). */
  endAll(): void {
    for (const stream of this.#open) stream.abort();
  }

  close(): void {
    this.#unfollow();
    this.endAll();
  }

  #landed({ snapshot, entries }: LandedChanges): void {
    const { ids, projectNames, projectOf } = snapshot.table;
    const changed = new Set<string>();
    const mark = (uri: string) => {
      if (this.#bus.follows(uri)) changed.add(uri);
    };
    for (const entry of entries) {
      if (entry.removal) {
        mark(recordUri(entry.removal.id));
        continue;
      }
      mark(recordUri(ids[entry.position]!));
      mark(projectUri(projectNames[projectOf[entry.position]!]!));
    }
    for (const uri of changed) this.#notify.resourceUpdated(uri);
  }
}
