// Resource subscriptions as changes land. A 2026-07-28 client opens `subscriptions/listen` naming the
// resource URIs it follows; the SDK holds that stream and delivers `notifications/resources/updated` for
// each URI published on its bus to the streams that named it. The SDK's bus hands every event to every
// open stream, so this side publishes only the URIs some open stream names: it counts them as the
// listen requests come in (read from the body before the SDK serves it), and for each batch of landed
// changes publishes the record URIs and project URIs that are both changed and followed. A swap costs
// its size in set lookups when nobody follows, and never the corpus.
import type { ServerNotifier } from '@modelcontextprotocol/server';
import type { ChangeFollower, LandedChanges } from '../../core/change-follower.js';
import { projectUri, recordUri } from '../shared/resource-uris.js';

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
 * whatever else it is). The method's name is looked for first: every other request is passed on without
 * a second parse.
 */
export function listenRequest(body: string): ListenRequest | undefined {
  if (!body.includes(LISTEN_METHOD)) return undefined;
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
  readonly #notify: ServerNotifier;
  /** Each followed URI with the number of open subscriptions naming it. */
  readonly #followed = new Map<string, number>();
  /** One per open subscription: aborting it ends the stream (the SDK tears it down on its request's signal). */
  readonly #open = new Set<AbortController>();
  readonly #unfollow: () => void;

  constructor(changes: ChangeFollower, notify: ServerNotifier) {
    this.#notify = notify;
    this.#unfollow = changes.follow((landed) => this.#landed(landed));
  }

  /** Counts a subscription to `uris` as open until the function returned is called (once is enough). */
  open(uris: readonly string[], stream: AbortController): () => void {
    const distinct = new Set(uris);
    for (const uri of distinct) this.#followed.set(uri, (this.#followed.get(uri) ?? 0) + 1);
    this.#open.add(stream);
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      this.#open.delete(stream);
      stream.abort();
      for (const uri of distinct) {
        const left = this.#followed.get(uri)! - 1;
        if (left === 0) this.#followed.delete(uri);
        else this.#followed.set(uri, left);
      }
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
    if (this.#followed.size === 0) return;
    const { ids, projectNames, projectOf } = snapshot.table;
    const changed = new Set<string>();
    const mark = (uri: string) => {
      if (this.#followed.has(uri)) changed.add(uri);
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
