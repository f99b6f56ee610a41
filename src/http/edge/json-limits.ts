// JSON bodies are parsed once their nesting is known to be shallow. Nothing this service reads nests
// more than a few levels, while a body of 64 KiB can nest 32,000 levels deep, and code that walks such
// a value (a deep copy, a validator, an SDK's message checks) recurses once per level until the stack
// overflows: an answer of 500 to a client's mistake, after milliseconds of wasted work.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from '../../contract/index.js';

/** Deeper than any request of any surface (the deepest, an A2A message with metadata, nests about 8). */
export const MAX_JSON_DEPTH = 64;

/** Whether the JSON text nests arrays and objects deeper than `max`; one pass, strings skipped. */
export function nestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

export const tooDeep = (): ServiceError =>
  new ServiceError('invalid_json', `The request body nests JSON deeper than ${MAX_JSON_DEPTH} levels.`, { maxDepth: MAX_JSON_DEPTH });

/** Fastify's own JSON parser (prototype-poisoning checks included), behind the depth check. */
export function registerJsonParser(app: FastifyInstance): void {
  // Fastify's JSON parser answers through its callback (the type also allows a promise-returning parser).
  const parse = app.getDefaultJsonParser('error', 'error') as (
    request: FastifyRequest,
    body: string,
    done: (error: Error | null, value?: unknown) => void,
  ) => void;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (nestsDeeperThan(body as string)) return done(tooDeep(), undefined);
    parse(request, body as string, done);
  });
}
