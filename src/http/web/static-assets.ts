// Files the pages load, read once at start and served from memory with ETags (see edge/caching.ts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { acceptedCodings } from '../shared/negotiation.js';

export interface Asset {
  readonly path: string;
  readonly type: string;
  readonly body: Buffer;
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
  for (const { path, type, body } of assets) {
    const encoded = new Map<Coding, Buffer>();
    app.get(path, { config: { caching: 'public' } }, (request, reply) => {
      reply.header('content-type', type);
      const coding = body.length >= 1024 ? preferredCoding(request.headers['accept-encoding']) : undefined;
      if (!coding) return reply.send(body);
      let bytes = encoded.get(coding);
      if (!bytes) {
        bytes = coding === 'br' ? brotliCompressSync(body, BROTLI_ONCE) : gzipSync(body, { level: 9 });
        encoded.set(coding, bytes);
      }
      return reply.header('content-encoding', coding).header('vary', 'Accept-Encoding').send(bytes);
    });
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
