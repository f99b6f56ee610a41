// The /ask event stream as NLWeb sends it: unnamed events (what `EventSource.onmessage` receives), each
// one JSON message naming itself in `message_type`, written as soon as each is ready, with keep-alive
// comments while it is open, and no more work once the client has gone.
import type { FastifyReply } from 'fastify';
import type { AskStreamMessage } from '../../contract/index.js';
import { openEventStreamResponse } from '../shared/event-stream-head.js';

export const KEEP_ALIVE_MS = 15_000;

export interface EventStream {
  /** Writes one message; resolves false once the client is gone (stop producing). */
  send(message: AskStreamMessage): Promise<boolean>;
  end(): void;
}

export function openEventStream(reply: FastifyReply): EventStream {
  const raw = openEventStreamResponse(reply);
  let open = true;
  const close = () => {
    open = false;
    clearInterval(keepAlive);
  };
  raw.once('close', close);
  const keepAlive = setInterval(() => raw.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  keepAlive.unref();

  return {
    async send(message) {
      if (!open) return false;
      // No `event:` line: a named event would reach only addEventListener(name), never onmessage.
      if (!raw.write(`data: ${JSON.stringify(message)}\n\n`)) {
        // Respect backpressure: a slow reader holds the producer back instead of growing a buffer.
        await new Promise<void>((resolve) => {
          raw.once('drain', resolve);
          raw.once('close', resolve);
        });
      }
      return open;
    },
    end() {
      close();
      raw.end();
    },
  };
}
