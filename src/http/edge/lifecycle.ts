// RFC 9745 Deprecation, RFC 8594 Sunset and the policy link on every successful v1 response, only once
// a deprecation is configured. By default v1 is active and none of them is sent.
import type { FastifyInstance } from 'fastify';
import type { LifecycleConfig } from '../../config.js';
import { PATHS } from '../shared/paths.js';

export function lifecycleHeaders(lifecycle: LifecycleConfig, baseUrl: string): Record<string, string> {
  const headers: Record<string, string> = {};
  // Sunset without a deprecation would announce a shutdown of a version nobody was told is deprecated.
  if (!lifecycle.deprecation) return headers;
  const policy = `${baseUrl}${PATHS.lifecyclePolicy}`;
  const links = [`<${policy}>; rel="deprecation"; type="text/markdown"`];
  headers.deprecation = `@${Math.floor(lifecycle.deprecation.getTime() / 1000)}`;
  if (lifecycle.sunset) {
    headers.sunset = lifecycle.sunset.toUTCString();
    links.push(`<${policy}>; rel="sunset"; type="text/markdown"`);
  }
  if (lifecycle.successor) links.push(`<${lifecycle.successor}>; rel="successor-version"`);
  headers.link = links.join(', ');
  return headers;
}

/** Registered inside the /api/v1 scope so that no other path carries the headers. */
export function registerLifecycleHeaders(app: FastifyInstance, lifecycle: LifecycleConfig, baseUrl: string): void {
  const headers = Object.entries(lifecycleHeaders(lifecycle, baseUrl));
  if (headers.length === 0) return;
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.statusCode === 200) for (const [name, value] of headers) reply.header(name, value);
    done(null, payload);
  });
}
