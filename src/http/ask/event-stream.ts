// The /ask event stream as NLWeb sends it: unnamed events (what `EventSource.onmessage` receives), each
// one JSON message naming itself in `message_type`, written as soon as each is ready, with keep-alive
// comments while it is open, and no more work once the client has gone.
import type { FastifyReply } from 'fastify';
import type { AskStreamMessage } from '../../contract/index.js';

export const KEEP_ALIVE_MS = 15_000;

export interface EventStream {
  /** Writes one message; resolves false once the client is gone (stop producing). */
  send(message: AskStreamMessage): Promise<boolean>;
  end(): void;
}

export function openEventStream(reply: FastifyReply): EventStream {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    // Proxies such as nginx would otherwise hold events back until their buffer fills.
    'x-accel-buffering': 'no',
  });
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
