// Writing many short texts one by one costs a call (and, through gzip, a thread-pool task) each: at
// 340,000 records that made writing a catalog take 28 s instead of 7. Both writers join them first.

/** Texts joined into chunks of about a megabyte (counted in UTF-16 units), in order. */
export function* inChunks(texts: Iterable<string>): Generator<string, void, undefined> {
  let chunk: string[] = [];
  let length = 0;
  for (const text of texts) {
    chunk.push(text);
    length += text.length;
    if (length >= 1 << 20) {
      yield chunk.join('');
      chunk = [];
      length = 0;
    }
  }
  if (chunk.length > 0) yield chunk.join('');
}
