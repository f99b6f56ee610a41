/** Codes the SDK gives when no error answer came from the service. */
export type ClientErrorCode = 'timeout' | 'network_error' | 'invalid_response';

export interface CveRecordsErrorInit {
  /** HTTP status of the answer; 0 when none arrived (timeout, network failure). */
  readonly status: number;
  /** The service's `error.code` (e.g. `record_not_found`, `rate_limited`), or a ClientErrorCode. */
  readonly code: string;
  readonly message: string;
  /** The service's `error.details`, whose shape depends on the code. */
  readonly details?: unknown;
  /** The service's `requestId` (also `X-Request-Id`): quote it when reporting a problem. */
  readonly requestId?: string | undefined;
  /** Seconds the service asked to wait (`Retry-After`), on a 429 the SDK did not retry. */
  readonly retryAfterSeconds?: number | undefined;
}

/** Every failure of a call, except the caller's own abort, which rejects with the signal's reason. */
export class CveRecordsError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;
  readonly requestId: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(init: CveRecordsErrorInit, options?: { cause?: unknown }) {
    super(init.message, options);
    this.name = 'CveRecordsError';
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}
