// Server-Sent Events as the HTML standard parses them (event, data, comments, any line ending), for
// a fetch body: EventSource itself cannot send headers or be cancelled through an AbortSignal.

export interface ServerSentEvent {
  readonly event: string;
  readonly data: string;
  /** The last event ID when the event was dispatched (an `id:` line sets it for this event and those after). */
  readonly id: string | undefined;
}

/** Yields each event of the stream; returning early cancels the body, which closes the connection. */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      let text = buffer + decoder.decode(value, { stream: !done });
      // A final CR may be the first half of a CRLF split between two chunks: keep it for the next one.
      const heldBack = !done && text.endsWith('\r') ? '\r' : '';
      if (heldBack) text = text.slice(0, -1);
      const lines = text.split(/\r\n|\r|\n/);
      // The last piece has no line ending yet, unless the stream is over (then an unfinished event is dropped).
      buffer = done ? '' : lines.pop()! + heldBack;
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n'), id };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const text = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = text;
        else if (field === 'data') data.push(text);
        else if (field === 'id' && !text.includes('\0')) id = text;
      }
      if (done) return;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
