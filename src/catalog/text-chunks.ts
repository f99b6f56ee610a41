// Writing many short texts one by one costs a call (and, through gzip, a thread-pool task) each: at
// 340,000 records that made writing a catalog take 28 s instead of 7. Both writers take them a megabyte
// at a time, each text encoded where it lands in the chunk: joining a megabyte of texts into one string
// first cost twenty times the encoding itself (docs/PERFORMANCE.md, "The lead's work, stop 36").

const CHUNK_BYTES = 1 << 20;

/** The texts as UTF-8, in order, in chunks of about a megabyte (a longer text gets a chunk of its own size). */
export function* inChunks(texts: Iterable<string>): Generator<Buffer, void, undefined> {
  // A new buffer per chunk: a stream may still hold the one before.
  let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = 0;
  for (const text of texts) {
    const bytes = Buffer.byteLength(text);
    if (used + bytes > chunk.length) {
      if (used > 0) yield chunk.subarray(0, used);
      chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, bytes));
      used = 0;
    }
    used += chunk.write(text, used);
  }
  if (used > 0) yield chunk.subarray(0, used);
}
