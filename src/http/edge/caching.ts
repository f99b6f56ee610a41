// HTTP caching. Records and documents only change when the dataset or the service does, so their GET
// answers carry a strong ETag and a public max-age, and a client that already holds the representation
// gets 304 with no body. Everything else (errors, batch, search, health) says `no-store`.
//
// Most answers are tagged by hashing their bytes here; records and list pages come tagged by their handler
// (from each record's tag, made once per snapshot, and from what makes a page), so the hot path hashes no body. The export and the feeds (`dataset` routes) are
// tagged by the dataset version instead, by their handler before anything is built: the export is
// megabytes no one should hash per request, and a feed reader's poll is then a 304 for the price of a
// header comparison.
import { createHash } from 'node:crypto';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import type { Snapshot } from '../../core/snapshot.js';
import { SERVICE_VERSION } from '../../version.js';
import { addHeaderLines, headerLines } from './header-block.js';
import { routeOf } from './route-of.js';

export type CachePolicy = 'public' | 'immutable' | 'dataset' | 'no-store';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Whether a 200 GET of this route may be cached; routes without it are `no-store`. `immutable` is for
     * URLs named by a fingerprint of their bytes, which a client may keep for a year without asking again.
     */
    caching?: CachePolicy;
  }
}

/**
 * The ETag names the dataset version it was served from (so an operator can tell which data a client
 * holds) and a hash of the exact bytes (so any change of representation, data or code, changes it), or,
 * for a handler that knows its bytes' makings without hashing them, of those makings.
 */
export function entityTag(datasetVersion: string, ...payload: ReadonlyArray<string | Buffer>): string {
  const hash = createHash('sha1');
  for (const part of payload) hash.update(part);
  return `"${datasetVersion.slice(0, 8)}-${hash.digest('base64url').slice(0, 22)}"`;
}

/**
 * The ETag of an answer that its makings name in a few tag-safe characters (a record's details: the dataset
 * version, the service version and the id): those names themselves, with no hash to compute per request.
 */
export function namedEntityTag(datasetVersion: string, ...names: readonly string[]): string {
  return `"${datasetVersion}-${names.join('-')}"`;
}

/** A compressed answer is another representation, so its ETag names the coding: `"…-gzip"`. */
const CODING_SUFFIX = /-(gzip|br)"$/;

/** The tag of bytes sent in `coding`: the coding appended once; identity bytes keep the tag as it is. */
function codedTag(etag: string, coding: unknown): string {
  return (coding === 'gzip' || coding === 'br') && !CODING_SUFFIX.test(etag) ? `${etag.slice(0, -1)}-${coding}"` : etag;
}

/**
 * If-None-Match uses the weak comparison (RFC 9110 §13.1.2): `W/` prefixes are ignored. A tag of a
 * compressed representation matches too: the client holds the same content, only encoded.
 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const content = etag.replace(CODING_SUFFIX, '"');
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '').replace(CODING_SUFFIX, '"') === content;
  });
}

/**
 * Runs after compression (it must be registered after @fastify/compress, whose hook is per route):
 * a compressed answer's ETag gets the coding appended, so gzip and identity bytes never share a strong tag.
 */
function registerCodingInEntityTag(app: FastifyInstance): void {
  const tagCoding: onSendHookHandler = (_request, reply, payload, done) => {
    const etag = reply.getHeader('etag');
    if (typeof etag === 'string') reply.header('etag', codedTag(etag, reply.getHeader('content-encoding')));
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    route.onSend = [...(Array.isArray(route.onSend) ? route.onSend : route.onSend ? [route.onSend] : []), tagCoding];
  });
}

/**
 * For `dataset` routes: sets the validators of the snapshot being answered from (ETag: its version and
 * the service's, whose code makes the representation; Last-Modified: when it was loaded) and, when the
 * client holds that version already, answers 304. Returns whether it did; the handler then builds nothing.
 */
export function answeredNotModified(
  request: FastifyRequest,
  reply: FastifyReply,
  snapshot: Pick<Snapshot, 'version' | 'loadedAt'>,
  /** The coding the handler sends its answer in, if any, so that a 304 names it as the 200 would. */
  coding?: 'gzip',
): boolean {
  const etag = codedTag(`"${snapshot.version}-${SERVICE_VERSION}"`, coding);
  // HTTP dates count whole seconds.
  const lastModified = Math.floor(snapshot.loadedAt.getTime() / 1000) * 1000;
  reply.header('etag', etag).header('last-modified', new Date(lastModified).toUTCString());
  const ifNoneMatch = request.headers['if-none-match'];
  // RFC 9110 §13.1.3: If-Modified-Since is ignored when If-None-Match is present.
  const current =
    ifNoneMatch === undefined ? lastModified <= Date.parse(request.headers['if-modified-since'] ?? '') : noneMatch(ifNoneMatch, etag);
  if (current) reply.code(304).send();
  return current;
}

/** A year, the longest max-age HTTP caches are asked to honour (RFC 9111 §1.2.2). */
const IMMUTABLE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * The caching step of the edge's onSend hook (edge.ts): sets the validators and Cache-Control, and returns
 * the payload to send: the handler's, or none for a 304.
 */
export type Caching = (request: FastifyRequest, reply: FastifyReply, payload: unknown) => unknown;

/** Cache-Control as a line of the header block (header-block.ts): Node checks no header it is not handed. */
const controlLine = (value: string) => headerLines({ 'cache-control': value });
const NO_STORE_LINE = controlLine('no-store');
const IMMUTABLE_LINE = controlLine(IMMUTABLE_CONTROL);

export function cachingOf(maxAgeSeconds: number, datasetVersion: () => string): Caching {
  const publicLine = controlLine(`public, max-age=${maxAgeSeconds}`);
  return (request, reply, payload) => {
    const policy = routeOf(request).caching;
    const tagged = reply.getHeader('etag');
    if (policy === 'dataset' && typeof tagged === 'string' && (reply.statusCode === 200 || reply.statusCode === 304)) {
      // Tagged by the handler (answeredNotModified), which has answered 304 itself if it had to.
      reply.header('etag', codedTag(tagged, reply.getHeader('content-encoding')));
      addHeaderLines(reply, publicLine);
      return reply.statusCode === 200 ? payload : notModified(request, reply);
    }
    const cacheable =
      (policy === 'public' || policy === 'immutable') &&
      reply.statusCode === 200 &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      (typeof payload === 'string' || Buffer.isBuffer(payload));
    if (!cacheable) {
      addHeaderLines(reply, NO_STORE_LINE);
      return payload;
    }
    // A handler that tagged its answer (records and pages, from stored tags) is not hashed again. A handler
    // that sends bytes already compressed (the static assets) has its coding named here; what the
    // compression layer encodes later is named by registerCodingInEntityTag.
    const etag = codedTag(
      typeof tagged === 'string' ? tagged : entityTag(datasetVersion(), payload as string | Buffer),
      reply.getHeader('content-encoding'),
    );
    reply.header('etag', etag);
    addHeaderLines(reply, policy === 'immutable' ? IMMUTABLE_LINE : publicLine);
    if (!noneMatch(request.headers['if-none-match'], etag)) return payload;
    reply.code(304);
    return notModified(request, reply);
  };
}

function notModified(request: FastifyRequest, reply: FastifyReply): null | undefined {
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  // Fastify's HEAD handling, which runs after this hook, expects `undefined` for "no body".
  return request.method === 'HEAD' ? undefined : null;
}

const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Compression of bodies over 1 KiB for clients that accept it, and the coding named in the ETag. The
 * compression layer's hook must run before the one that renames the tag: both are registered here, in
 * that order.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, { global: true, threshold: COMPRESSION_THRESHOLD_BYTES, encodings: ['br', 'gzip'] });
  registerCodingInEntityTag(app);
}
