// Newline-delimited JSON from a fetch body, one value per line, read as the bytes arrive: the export is
// tens of megabytes, which `response.json()`-style reading would hold whole.

/** Yields each non-empty line of the stream; returning early cancels the body, which closes the connection. */
export async function* readLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += decoder.decode(value, { stream: !done });
      const lines = buffer.split('\n');
      // The last piece has no line ending yet, unless the stream is over.
      buffer = done ? '' : lines.pop()!;
      for (const line of lines) if (line.trim() !== '') yield line;
      if (done) return;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
