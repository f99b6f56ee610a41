import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { pino } from 'pino';
import { flatText } from '../shared/flat-text.js';
import { routeOf } from './route-of.js';

/**
 * One structured line per request, written when the response has been sent (RequestLogController): id,
 * method, url, route, status, duration and client address. (Fastify's default writes two lines per request,
 * which costs throughput.) The request id is written here, not bound in a child logger per request
 * (server.ts). Cookies and other headers are never logged.
 */
export type RequestLog = (request: FastifyRequest, reply: FastifyReply) => void;

const {
  lsCacheSym,
  timeSym,
  chindingsSym,
  streamSym,
  endSym,
  messageKeySym,
  levelValSym,
  formattersSym,
  mixinSym,
  hooksSym,
  msgPrefixSym,
  nestedKeySym,
  serializersSym,
  stringifiersSym,
  wildcardFirstSym,
  needsMetadataGsym,
} = pino.symbols as typeof pino.symbols & { readonly msgPrefixSym: symbol }; // the message prefix's is untyped

/** Pino's state, by the symbols pino exports for it (its types are not published). */
type PinoInternals = Record<symbol, unknown>;
type Stringifiers = Record<string | symbol, unknown>;

const FIELDS = ['reqId', 'method', 'url', 'route', 'status', 'ms', 'client'];

/** The line's fields, in the order they are written. */
function fieldsOf(request: FastifyRequest, reply: FastifyReply) {
  return {
    reqId: request.id,
    method: request.method,
    url: request.url,
    route: routeOf(request).url ?? null,
    status: reply.statusCode,
    ms: Math.round(reply.elapsedTime * 100) / 100,
    client: request.client,
  };
}

/** What the line is built from, when pino would write our fields as they are (see below); else none. */
interface PlainPino {
  /** Level, time and bindings: how pino starts every line of this level. */
  readonly prefix: () => string;
  readonly end: string;
  readonly enabled: () => boolean;
  readonly write: (line: string) => unknown;
}

/**
 * Pino writes our fields as they are when nothing of the logger's configuration rewrites, adds, redacts
 * or reorders them (a log formatter, a mixin, hooks, a message prefix, a nested key, serializers or
 * stringifiers of these keys) and the stream does not ask for the line's metadata (a multistream).
 */
function plainPino(logger: FastifyBaseLogger): PlainPino | undefined {
  const internals = logger as unknown as PinoInternals;
  const stream = internals[streamSym] as { write?: (line: string) => unknown } & PinoInternals;
  const write = stream?.write;
  const time = internals[timeSym];
  const levels = internals[lsCacheSym] as Record<number, string> | undefined;
  const info = (logger as unknown as pino.Logger).levels?.values?.info;
  if (typeof time !== 'function' || !levels || info === undefined || typeof write !== 'function') return undefined;
  const serializers = (internals[serializersSym] ?? {}) as Stringifiers;
  const stringifiers = (internals[stringifiersSym] ?? {}) as Stringifiers;
  const hooks = (internals[hooksSym] ?? {}) as Stringifiers;
  const plain =
    !(internals[formattersSym] as Stringifiers | undefined)?.log &&
    !internals[mixinSym] &&
    !hooks.logMethod &&
    !hooks.streamWrite &&
    typeof internals[msgPrefixSym] !== 'string' &&
    !internals[nestedKeySym] &&
    !stringifiers[wildcardFirstSym] &&
    FIELDS.every((key) => !serializers[key] && !stringifiers[key]) &&
    stream[needsMetadataGsym] !== true;
  if (!plain) return undefined;
  const level = flatText(levels[info]!);
  // Pino's default time (`,"time":` and Date.now()) made here from the second's text, made once a second,
  // and the millisecond's, from a table: a number past the small integers' cost V8 about 0.7 thousand
  // instructions to format at every line.
  let second = -1;
  let secondText = '';
  const epochTime = () => {
    const ms = Date.now();
    const s = Math.floor(ms / 1000);
    if (s !== second) {
      second = s;
      secondText = flatText(`,"time":${s}`);
    }
    return secondText + MILLISECONDS[ms - s * 1000];
  };
  const timeOf = time === pino.stdTimeFunctions.epochTime ? epochTime : () => (time as () => string).call(logger);
  // The bindings are read per line (they can change), and made flat when they have.
  let bindings: unknown;
  let bindingsText = '';
  const bindingsOf = () => {
    const current = internals[chindingsSym];
    if (current !== bindings) {
      bindings = current;
      bindingsText = flatText(String(current));
    }
    return bindingsText;
  };
  return {
    prefix: () => `${level}${timeOf()}${bindingsOf()}`,
    end: flatText(`,${JSON.stringify(internals[messageKeySym])}:"request"${internals[endSym]}`),
    enabled: () => (internals[levelValSym] as number) <= info,
    write: (line) => write.call(stream, line),
  };
}

/**
 * A string as JSON writes it. Most urls hold nothing JSON escapes (a quote, a backslash, a control
 * character, a surrogate, of which JSON escapes the lone ones): those are written as they are, without
 * JSON.stringify's copy.
 */
export function jsonString(text: string): string {
  return ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON escapes
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** '000' to '999'. */
const MILLISECONDS = Array.from({ length: 1000 }, (_, ms) => String(ms).padStart(3, '0'));

/**
 * Milliseconds rounded to hundredths, as `String(Math.round(ms * 100) / 100)` writes them, from integers:
 * a fraction's shortest decimal form costs V8 about 1 thousand instructions, small integers' forms are cached.
 */
export function hundredths(ms: number): string {
  const n = Math.round(ms * 100);
  // Past 2^31 hundredths (about 250 days) or below zero, the general form.
  if (!(n >= 0 && n < 0x80000000)) return String(n / 100);
  const whole = (n / 100) | 0;
  const rest = n - whole * 100;
  if (rest === 0) return `${whole}`;
  if (rest % 10 === 0) return `${whole}.${rest / 10}`;
  return rest < 10 ? `${whole}.0${rest}` : `${whole}.${rest}`;
}

/**
 * The request line's writer for `logger`. For a plain pino logger (the service's) the line is built here,
 * byte for byte what `logger.info(fields, 'request')` writes (its level, time and bindings prefix from pino's
 * own caches, then the fields, then the message): pino's generic path (a pass over the object's keys,
 * each key and string escaped character by character, the message formatted) cost about as many
 * instructions as the rest of a get-one (docs/PERFORMANCE.md, issue 29). Only the url can hold characters
 * JSON escapes; the id is ours (a UUID), the method a token, the route ours, the client an IP address.
 * Any other logger is given the fields through `info`.
 */
export function requestLogOf(logger: FastifyBaseLogger): RequestLog {
  const pinoLine = plainPino(logger);
  if (!pinoLine) return (request, reply) => logger.info(fieldsOf(request, reply), 'request');
  const { prefix, end, enabled, write } = pinoLine;
  return (request, reply) => {
    if (!enabled()) return;
    write(
      `${prefix()},"reqId":"${request.id}","method":"${request.method}","url":${jsonString(request.url)},"route":${routeOf(request).urlJson},"status":${reply.statusCode},"ms":${hundredths(reply.elapsedTime)},"client":"${request.client}"${end}`,
    );
  };
}

/**
 * Where the request line is written: Fastify's own call for the line it would write when a response has
 * ended (its log controller's `requestCompleted`, after any onResponse hook, for every request, a failed
 * one too), not an onResponse hook of ours, whose runner and callbacks cost every request about a tenth of
 * what the line itself costs (docs/PERFORMANCE.md, "Hot path, stop 38"). Fastify's other lines about
 * requests stay off, as `disableRequestLogging` has them. It writes nothing until told where (`logTo`):
 * the logger is the app's, made with the app this controller is given to.
 */
export class RequestLogController extends LogController {
  #log: RequestLog = () => {};

  constructor() {
    super({ disableRequestLogging: true });
  }

  logTo(logger: FastifyBaseLogger): void {
    this.#log = requestLogOf(logger);
  }

  override requestCompleted(_error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    this.#log(request, reply);
  }
}
