// The open change streams and what reaches them. Each batch of landed changes is filtered once per
// distinct set of filters and its events are written once as text shared by every stream of that set, so
// a change costs its size times the number of filter sets, plus one write per stream; a stream holds its
// response, its filters and the point it has reached, nothing of the corpus. One timer keeps them all
// alive; the drain ends them all.
import type { ServerResponse } from 'node:http';
import { CHANGE_STREAM_BUFFER_BYTES, type ChangeStreamReady, type RecordChange } from '../../contract/index.js';
import type { ChangeFollower, LandedChanges } from '../../core/change-follower.js';
import { type ChangePoint, isAfter } from '../../core/change-order.js';
import { type ChangeEntry, changeOf } from '../../core/changes.js';
import type { CursorCodec } from '../../core/cursor.js';
import type { ListFilters } from '../../core/record-entry.js';

export interface ChangeStream {
  readonly raw: ServerResponse;
  readonly filters: ListFilters;
  /** The last change this stream has been given (or skipped, not matching its filters). */
  point: ChangePoint;
}

interface FilterGroup {
  readonly filters: ListFilters;
  readonly streams: Set<ChangeStream>;
}

/** One change as an event: unnamed, so `EventSource.onmessage` receives it; its id is where to resume after it. */
export function changeEvent(id: string, change: RecordChange): string {
  return `id: ${id}\ndata: ${JSON.stringify(change)}\n\n`;
}

/** Marks the end of the catch-up: everything up to `next` has been sent; what follows is live. */
export function readyEvent(next: string): string {
  const data: ChangeStreamReady = { next };
  return `event: ready\nid: ${next}\ndata: ${JSON.stringify(data)}\n\n`;
}

export class ChangeStreamHub {
  readonly #tokens: CursorCodec;
  /** Every open stream, catching up or live. */
  readonly #open = new Set<ChangeStream>();
  /** Live streams by their filters. */
  readonly #groups = new Map<string, FilterGroup>();
  readonly #keepAlive: NodeJS.Timeout;
  readonly #unfollow: () => void;

  constructor(changes: ChangeFollower, tokens: CursorCodec, keepAliveMs: number) {
    this.#tokens = tokens;
    this.#unfollow = changes.follow((landed) => this.#landed(landed));
    this.#keepAlive = setInterval(() => {
      for (const stream of this.#open) this.#write(stream, ': keep-alive\n\n');
    }, keepAliveMs);
    this.#keepAlive.unref();
  }

  get size(): number {
    return this.#open.size;
  }

  /** Counts a stream as open (kept alive, ended by the drain) from now until its response closes. */
  open(stream: ChangeStream): void {
    this.#open.add(stream);
    stream.raw.once('close', () => {
      this.#open.delete(stream);
      const key = groupKey(stream.filters);
      const group = this.#groups.get(key);
      if (group?.streams.delete(stream) && group.streams.size === 0) this.#groups.delete(key);
    });
  }

  /** From now on the stream is given what lands; it has been sent everything up to its point. */
  live(stream: ChangeStream): void {
    if (!this.#open.has(stream)) return;
    const key = groupKey(stream.filters);
    let group = this.#groups.get(key);
    if (!group) {
      group = { filters: stream.filters, streams: new Set() };
      this.#groups.set(key, group);
    }
    group.streams.add(stream);
  }

  /**
   * Writes `text` unless the client has stopped reading: past the bound it is disconnected rather than
   * buffered without end (it resumes with Last-Event-ID and catches up at its own pace). Answers whether
   * the socket asks to wait (backpressure) before more.
   */
  write(stream: ChangeStream, text: string): boolean {
    return this.#write(stream, text);
  }

  /**
   * Ends every stream, cleanly (the drain: clients reconnect elsewhere and resume); those still open
   * `cutAfterMs` later are cut. A stream has given its connection's parser back (request-parser.ts), which
   * takes the connection out of the list that the stop's deadline cuts (closeAllConnections): a client that
   * does not read its stream's end would otherwise hold the stop.
   */
  endAll(cutAfterMs?: number): void {
    for (const stream of this.#open) stream.raw.end();
    if (cutAfterMs === undefined) return;
    setTimeout(() => {
      for (const stream of this.#open) stream.raw.destroy();
    }, cutAfterMs).unref();
  }

  close(): void {
    clearInterval(this.#keepAlive);
    this.#unfollow();
    this.endAll();
  }

  #write(stream: ChangeStream, text: string): boolean {
    const { raw } = stream;
    if (raw.destroyed || raw.writableEnded) return false;
    if (raw.writableLength > CHANGE_STREAM_BUFFER_BYTES) {
      raw.destroy();
      return false;
    }
    return raw.write(text);
  }

  #landed(landed: LandedChanges): void {
    const texts = new Map<ChangeEntry, string>();
    const textOf = (entry: ChangeEntry): string => {
      let text = texts.get(entry);
      if (text === undefined) {
        text = changeEvent(this.#tokens.encodeChangePoint(entry.point), changeOf(landed.snapshot, entry));
        texts.set(entry, text);
      }
      return text;
    };
    for (const group of this.#groups.values()) {
      const accept = landed.snapshot.filters.matcher(group.filters);
      const matched = accept ? landed.entries.filter((entry) => entry.position < 0 || accept(entry.position)) : landed.entries;
      let all: string | undefined;
      const allText = (): string => {
        all ??= matched.map(textOf).join('');
        return all;
      };
      for (const stream of group.streams) {
        // A stream that went live during a walk may already have been sent part of it, or all of it.
        if (!isAfter(landed.last.time, landed.last.id!, stream.point)) continue;
        const first = matched[0];
        const fresh =
          first === undefined || isAfter(first.point.time, first.point.id!, stream.point)
            ? allText()
            : matched
                .filter((entry) => isAfter(entry.point.time, entry.point.id!, stream.point))
                .map(textOf)
                .join('');
        stream.point = landed.last;
        if (fresh) this.#write(stream, fresh);
      }
    }
  }
}

function groupKey(filters: ListFilters): string {
  return JSON.stringify(filters);
}
