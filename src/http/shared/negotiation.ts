// Content negotiation: for the paths that serve people and programs alike, `/` (the page, or the JSON
// index) and `/docs` (the reference viewer, or the Markdown guide); and for answers kept already
// compressed (the page assets, the export), which codings a client accepts.
import type { FastifyReply, FastifyRequest } from 'fastify';

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

/**
 * The offer the Accept header ranks highest (RFC 9110 §12.5.1: each offer takes the q of the most
 * specific range that matches it). Ties and a missing, empty or unmatched header go to the first offer,
 * so a browser (`text/html,…,*\/*;q=0.8`) gets HTML while scripts (no Accept, `*\/*`) get the default.
 */
export function negotiate<T extends string>(accept: string | undefined, offers: readonly [T, ...T[]]): T {
  const ranges = parseAccept(accept ?? '');
  let best = offers[0];
  let bestQ = qualityOf(best, ranges);
  for (const offer of offers.slice(1)) {
    const q = qualityOf(offer, ranges);
    if (q > bestQ) [best, bestQ] = [offer, q];
  }
  return best;
}

function qualityOf(offer: string, ranges: readonly MediaRange[]): number {
  const [type, subtype] = offer.split('/');
  let specificity = -1;
  let q = 0;
  for (const range of ranges) {
    const matches = (range.type === '*' || range.type === type) && (range.subtype === '*' || range.subtype === subtype);
    const rangeSpecificity = (range.type === '*' ? 0 : 1) + (range.subtype === '*' ? 0 : 1);
    if (matches && rangeSpecificity > specificity) [specificity, q] = [rangeSpecificity, range.q];
  }
  return q;
}

function parseAccept(header: string): MediaRange[] {
  return header.split(',').flatMap((part) => {
    const [range = '', ...parameters] = part.split(';');
    const [type, subtype] = range.trim().toLowerCase().split('/');
    if (!type || !subtype) return [];
    const qParameter = parameters.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    const q = qParameter === undefined ? 1 : Number(qParameter.slice(2));
    return Number.isFinite(q) ? [{ type, subtype, q: Math.min(1, Math.max(0, q)) }] : [];
  });
}

type Handler = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | Promise<FastifyReply>;

/**
 * A handler for a path that is both a document (`type`, the default) and a page: browsers get the
 * page, everything else the document, and `Vary: Accept` tells caches that the answer depends on it.
 */
export function byAccept(type: string, page: Handler, document: Handler): Handler {
  return (request, reply) => {
    reply.header('vary', 'Accept');
    return negotiate(request.headers.accept, [type, 'text/html']) === 'text/html' ? page(request, reply) : document(request, reply);
  };
}

/** The content codings an Accept-Encoding header accepts, in lower case (a `q=0` refuses a coding). */
export function acceptedCodings(header: string | undefined): ReadonlySet<string> {
  return new Set(
    (header ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !q || !/^\s*q=0(\.0*)?\s*$/.test(q))
      .map(([name]) => name!.trim().toLowerCase()),
  );
}
