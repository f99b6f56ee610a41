// A catalog's bytes to its JSON. V8 strings stop at 512 MB, and a JSON catalog of the whole corpus with
// its details is larger than that once decompressed, so a catalog that big is parsed a line at a time:
// the catalog writer puts every element of `projects`, `removed` and `records` on a line of its own, each
// is parsed alone, and the few lines around them are parsed as a skeleton with each element's number in
// its place.
import { constants } from 'node:buffer';

const NEWLINE = 0x0a;
const ELEMENT_ARRAYS = ['projects', 'removed', 'records'] as const;

/** `limit`: the longest text parsed whole (V8's string limit; smaller in tests). */
export function parseCatalogBytes(bytes: Buffer, limit: number = constants.MAX_STRING_LENGTH): unknown {
  if (bytes.length < limit) return JSON.parse(bytes.toString('utf8'));
  try {
    return parseByLines(bytes);
  } catch (error) {
    // A catalog laid out otherwise ends here: an element cut over lines, or a skeleton itself too long.
    throw new SyntaxError(
      `${(error as Error).message} (a catalog over ${Math.floor(limit / 2 ** 20)} MB is read a line at a time: one element per line, as cve-records writes it)`,
    );
  }
}

function parseByLines(bytes: Buffer): unknown {
  const skeleton: string[] = [];
  const elements: unknown[] = [];
  for (let start = 0, first = true; start < bytes.length; first = false) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline < 0 ? bytes.length : newline;
    const line = bytes.toString('utf8', start, end);
    start = end + 1;
    const comma = line.endsWith(',');
    const body = comma ? line.slice(0, -1) : line;
    // The first line opens the catalog itself; any other whole object on a line is an array element.
    if (!first && body.startsWith('{') && body.endsWith('}')) {
      elements.push(JSON.parse(body));
      skeleton.push(`${elements.length - 1}${comma ? ',' : ''}`);
    } else skeleton.push(line);
  }
  const document = JSON.parse(skeleton.join('\n')) as Record<string, unknown>;
  for (const key of ELEMENT_ARRAYS) {
    const array = document[key];
    if (Array.isArray(array)) document[key] = array.map((item) => (typeof item === 'number' ? elements[item] : item));
  }
  return document;
}
