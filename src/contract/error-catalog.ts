// The one error catalog. Every surface renders these: REST as ErrorResponse, MCP as tool errors,
// A2A as JSON-RPC errors. A code never changes meaning once published.

export const errorCatalog = {
  invalid_parameter: { status: 400, message: 'A query parameter has an invalid value.' },
  unknown_parameter: { status: 400, message: 'The request has a query parameter this operation does not accept.' },
  repeated_parameter: { status: 400, message: 'A query parameter was given more than once.' },
  invalid_cursor: {
    status: 400,
    message: 'The cursor is malformed, was altered, or was issued for other filters.',
  },
  unsupported_media_type: { status: 400, message: 'The request body must be `application/json`.' },
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  invalid_body: { status: 400, message: 'The request body does not match the schema of this operation.' },
  body_too_large: { status: 400, message: 'The request body is larger than this service accepts.' },
  invalid_header: { status: 400, message: 'A request header has an invalid value.' },
  bad_request: { status: 400, message: 'The request could not be understood.' },
  not_found: { status: 404, message: 'There is no endpoint at this path.' },
  record_not_found: { status: 404, message: 'There is no public record with this identifier.' },
  method_not_allowed: { status: 405, message: 'This endpoint does not support the HTTP method.' },
  request_timeout: { status: 408, message: 'The request was not received in time; the connection is closed.' },
  uri_too_long: { status: 414, message: 'The request URL is longer than this service accepts.' },
  headers_too_large: { status: 431, message: 'The request headers are larger than this service accepts.' },
  rate_limited: { status: 429, message: 'The request limit for this address is exhausted; retry after `Retry-After` seconds.' },
  internal_error: { status: 500, message: 'The service could not complete the request.' },
  source_unreachable: {
    status: 500,
    message:
      'This server cannot reach its source of records: it answers from the last version it loaded, which may be behind. A proxy should prefer another.',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalog;
export const ERROR_CODES = Object.keys(errorCatalog) as ErrorCode[];

/** A failure the caller can act on, raised by the core or a surface and rendered by the edge. */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(code: ErrorCode, message?: string, details?: unknown) {
    super(message ?? errorCatalog[code].message);
    this.name = 'ServiceError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return errorCatalog[this.code].status;
  }
}
