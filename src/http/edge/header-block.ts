// The edge's headers as one block of text that Node writes after the status line as it is. Node checks
// every header it is handed in `writeHead` (the name against the token grammar and the value against the
// field-value grammar, each by a regular expression, and lowercases the name to find the few it treats
// specially), and Fastify lowercases and stores each name in the reply's header object first: about 2
// thousand instructions a header, whatever its value, which made a dozen edge headers a fifth of a
// get-one's cost (docs/PERFORMANCE.md, "The edge's headers as one block"). The lines here are either
// constant, checked once by node:http's own validators when the block is made, or made by the service from
// values that cannot hold anything but token characters (a UUID, integers): nothing a client sends.
import { type IncomingMessage, ServerResponse, validateHeaderName, validateHeaderValue } from 'node:http';
import type { FastifyReply } from 'fastify';
import { flatText } from '../shared/flat-text.js';

/** Node's method that writes the head (status line, then each header); not in its typings. */
type StoreHeader = (this: ServerResponse, firstLine: string, headers: unknown) => void;
const storeHeader = (ServerResponse.prototype as unknown as { _storeHeader: StoreHeader })._storeHeader;

/**
 * The server's response class (connection-limits.ts hands it to node:http): the lines added with
 * addHeaderLines go out right after the status line, whichever path writes the head (Fastify's send, a
 * stream's writeHead, a 304). The override rests on `_storeHeader`, which Node has not documented; the
 * real-socket test reads the head off the wire, so a Node that renamed it fails the tests, not the clients.
 */
export class HeaderBlockResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** `name: value\r\n` lines, already checked. */
  headerLines = '';

  _storeHeader(firstLine: string, headers: unknown): void {
    let lines = this.headerLines;
    if (headers) {
      for (let i = 0; i < replaceable.length; i++) {
        const [name, line] = replaceable[i]!;
        if ((headers as Record<string, unknown>)[name] !== undefined) lines = lines.replace(line, '');
      }
    }
    storeHeader.call(this, firstLine + lines, headers);
  }
}

/** Lines that an ordinary header of the same name replaces: [lowercase name, line]. */
const replaceable: Array<readonly [string, string]> = [];

/**
 * A default header as a line (checked now, as headerLines does) that a header of the same name set the
 * ordinary way (`reply.header`) replaces, rather than joins: the API's Content-Security-Policy, which the
 * web pages replace with their own (two policies would both apply, and the API's forbids what the pages load).
 */
export function replaceableLine(name: string, value: string): string {
  const line = headerLines({ [name]: value });
  replaceable.push([name.toLowerCase(), line]);
  return line;
}

/** Constant headers as lines, each checked now, by Node's own rules, rather than at every response. */
export function headerLines(headers: Readonly<Record<string, string>>): string {
  let lines = '';
  for (const [name, value] of Object.entries(headers)) {
    validateHeaderName(name);
    validateHeaderValue(name, value);
    lines += `${name}: ${value}\r\n`;
  }
  return flatText(lines);
}

/**
 * Adds header lines to the answer. A response of another class (Fastify's `inject`, which tests use, makes
 * its own) gets them as ordinary headers, one `reply.header` each.
 */
export function addHeaderLines(reply: FastifyReply, lines: string): void {
  const raw = reply.raw;
  if (raw instanceof HeaderBlockResponse) {
    raw.headerLines += lines;
    return;
  }
  for (const line of lines.split('\r\n')) {
    const colon = line.indexOf(': ');
    if (colon > 0) reply.header(line.slice(0, colon), line.slice(colon + 2));
  }
}
