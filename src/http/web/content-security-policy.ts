// The policies of the HTML this service sends. Every other answer keeps the edge's `default-src 'none'`.

/** The pages load their own stylesheet, scripts and icon, and talk only to their own origin. */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The API reference: Swagger UI's bundle and stylesheet, served from here. Its stylesheet draws its
 * icons as `data:` SVG images, and its "Try it out" calls this origin; nothing else is allowed.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');
