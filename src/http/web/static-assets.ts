// Files the pages load, read once at start and served from memory with ETags (see edge/caching.ts). Each
// is served at two paths: its own, for links written before fingerprints (cached like a document), and
// one that names a fingerprint of its bytes, which pages link to and which a browser keeps for a year, so
// that a second visit asks for the page alone.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { acceptedCodings } from '../shared/negotiation.js';

export interface Asset {
  readonly path: string;
  readonly type: string;
  readonly body: Buffer;
  /** The path with a fingerprint of the body before the extension (`/web/page.<hash>.css`): what pages link to. */
  readonly href: string;
}

export function asset(path: string, type: string, body: Buffer): Asset {
  const fingerprint = createHash('sha256').update(body).digest('hex').slice(0, 16);
  const dot = path.lastIndexOf('.');
  return { path, type, body, href: `${path.slice(0, dot)}.${fingerprint}${path.slice(dot)}` };
}

/**
 * The page's own files. The URL is the same from src/ (tests) and from dist/ (the built service),
 * both three folders below the repository, as discovery-routes.ts reads docs/API.md.
 */
const OWN_ASSETS = new URL('../../../src/http/web/assets/', import.meta.url);
const resolvePackageFile = createRequire(import.meta.url).resolve;

export const JAVASCRIPT = 'text/javascript; charset=utf-8';
export const CSS = 'text/css; charset=utf-8';

export function ownAsset(name: string): Buffer {
  return readFileSync(new URL(name, OWN_ASSETS));
}

export function packageAsset(specifier: string): Buffer {
  return readFileSync(resolvePackageFile(specifier));
}

/**
 * Assets never change while the service runs, so each is compressed once, on first demand, and the
 * compressed bytes are kept: the 1.7 MB API viewer bundle would otherwise cost ~80 ms of CPU per request
 * through the per-response compression. A body sent with Content-Encoding is left alone by that layer.
 */
export function registerAssets(app: FastifyInstance, assets: readonly Asset[]): void {
  for (const { path, type, body, href } of assets) {
    const encoded = new Map<Coding, Buffer>();
    const send = (request: FastifyRequest, reply: FastifyReply) => {
      reply.header('content-type', type);
      const coding = body.length >= 1024 ? preferredCoding(request.headers['accept-encoding']) : undefined;
      if (!coding) return reply.send(body);
      let bytes = encoded.get(coding);
      if (!bytes) {
        bytes = coding === 'br' ? brotliCompressSync(body, BROTLI_ONCE) : gzipSync(body, { level: 9 });
        encoded.set(coding, bytes);
      }
      return reply.header('content-encoding', coding).header('vary', 'Accept-Encoding').send(bytes);
    };
    app.get(path, { config: { caching: 'public' } }, send);
    app.get(href, { config: { caching: 'immutable' } }, send);
  }
}

type Coding = 'br' | 'gzip';

/** Quality 5: most of brotli's gain at a small fraction of the time of its default 11. */
const BROTLI_ONCE = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };

/** Brotli, else gzip, when the client accepts it. */
function preferredCoding(header: string | undefined): Coding | undefined {
  const accepted = acceptedCodings(header);
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}
