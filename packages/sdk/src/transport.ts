// The one place the SDK speaks HTTP: it builds URLs from the contract's paths, times each answer out,
// follows the caller's AbortSignal, maps error answers to CveRecordsError and waits out 429s.
import { type ClientErrorCode, CveRecordsError } from './errors.js';
import type { paths } from './generated/contract.js';
import type { ErrorResponse } from './types.js';

export interface ClientOptions {
  /** Where the service is, e.g. `https://cve.example.org`. */
  readonly baseUrl: string;
  /** Longest wait for one answer, in milliseconds (default 30 000). A stream counts until it opens. */
  readonly timeoutMs?: number;
  /**
   * Retries of a 429 after its `Retry-After` (default 2; 0 never retries). Apart from these, a request
   * that failed to reach the service is sent once more at once (see `open`); nothing else is retried.
   */
  readonly maxRetries?: number;
  /** Longest `Retry-After` waited out, in milliseconds (default 60 000); a longer one fails at once. */
  readonly maxRetryDelayMs?: number;
  /** Headers for every request, e.g. a `User-Agent` naming your application (outside browsers). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The fetch to use (default: the global one). */
  readonly fetch?: typeof fetch;
}

export interface RequestOptions {
  /** Cancels the call, retries and waits included: it then rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
  /** This call's timeout, instead of the client's. */
  readonly timeoutMs?: number | undefined;
}

export interface Call {
  readonly method: 'GET' | 'POST';
  readonly path: keyof paths;
  readonly pathParams?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly body?: unknown;
  readonly accept?: string;
}

/** An answer whose body is still to be read, and what a failure while reading it means. */
export interface OpenAnswer {
  readonly response: Response;
  readonly deadline: Deadline;
}

export class Transport {
  readonly #baseUrl: string;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #maxRetryDelayMs: number;
  readonly #headers: Readonly<Record<string, string>>;
  readonly #fetch: typeof fetch;

  constructor(options: ClientOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#maxRetries = options.maxRetries ?? 2;
    this.#maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
    this.#headers = options.headers ?? {};
    // Called detached: a browser's fetch throws "Illegal invocation" when called as another object's method.
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** Sends the call and parses its JSON answer; the timeout covers the body too. */
  async json<T>(call: Call, options: RequestOptions = {}): Promise<T> {
    const { response, deadline } = await this.open(call, options);
    try {
      return (await response.json()) as T;
    } catch (error) {
      throw deadline.failure(error, 'invalid_response');
    } finally {
      deadline.release();
    }
  }

  /** Sends the call and hands over the open answer; from then on only the caller's signal stops it. */
  async stream(call: Call, options: RequestOptions = {}): Promise<OpenAnswer> {
    const answer = await this.open(call, options);
    answer.deadline.stopTimer();
    return answer;
  }

  private async open(call: Call, options: RequestOptions): Promise<OpenAnswer> {
    const url = this.url(call);
    const send = this.#fetch;
    let retries = 0;
    let resent = false;
    for (;;) {
      options.signal?.throwIfAborted();
      const deadline = new Deadline(options.signal, options.timeoutMs ?? this.#timeoutMs, url);
      let response: Response;
      try {
        response = await send(url, {
          method: call.method,
          headers: {
            accept: call.accept ?? 'application/json',
            ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...this.#headers,
          },
          ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
          signal: deadline.signal,
        });
      } catch (error) {
        deadline.release();
        const failure = deadline.failure(error, 'network_error');
        // A kept-alive connection the server closed while idle fails the request sent on it before any
        // answer (ECONNRESET, "other side closed"); browsers and curl send it again on a new connection, and
        // so does this: every operation of the service only reads, so sending one twice is harmless. Once,
        // at once, and never after a timeout or the caller's abort.
        if (resent || !(failure instanceof CveRecordsError) || failure.code !== 'network_error') throw failure;
        resent = true;
        continue;
      }
      if (response.ok) return { response, deadline };

      let error: CveRecordsError;
      try {
        error = await errorOf(response);
      } catch (failure) {
        throw deadline.failure(failure, 'invalid_response');
      } finally {
        deadline.release();
      }
      const delayMs = (error.retryAfterSeconds ?? 1) * 1000;
      if (error.status !== 429 || retries >= this.#maxRetries || delayMs > this.#maxRetryDelayMs) throw error;
      retries++;
      await sleep(delayMs, options.signal);
    }
  }

  private url(call: Call): URL {
    const path = call.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(call.pathParams?.[name] ?? ''));
    const url = new URL(this.#baseUrl + path);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url;
  }
}

/** Follows the caller's signal, gives up on its own after a timeout, and tells the two apart. */
export class Deadline {
  readonly #controller = new AbortController();
  readonly #caller: AbortSignal | undefined;
  readonly #follow = () => this.#controller.abort(this.#caller?.reason);
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #timeoutMs: number;
  readonly #url: URL;
  #timedOut = false;

  constructor(caller: AbortSignal | undefined, timeoutMs: number, url: URL) {
    this.#caller = caller;
    this.#timeoutMs = timeoutMs;
    this.#url = url;
    caller?.addEventListener('abort', this.#follow, { once: true });
    this.#timer = setTimeout(() => {
      this.#timedOut = true;
      this.#controller.abort();
    }, timeoutMs);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  stopTimer(): void {
    clearTimeout(this.#timer);
  }

  release(): void {
    clearTimeout(this.#timer);
    this.#caller?.removeEventListener('abort', this.#follow);
  }

  /** What a failed send or read means to the caller: its own abort, a timeout, or `code`. */
  failure(error: unknown, code: ClientErrorCode): unknown {
    if (this.#caller?.aborted) return this.#caller.reason;
    if (error instanceof CveRecordsError) return error;
    const url = `${this.#url.origin}${this.#url.pathname}`;
    if (this.#timedOut) {
      return new CveRecordsError(
        { status: 0, code: 'timeout', message: `No answer from ${url} within ${this.#timeoutMs} ms.` },
        { cause: error },
      );
    }
    const reason = error instanceof Error ? error.message : String(error);
    const what = code === 'network_error' ? 'Could not reach' : 'Could not read the answer of';
    return new CveRecordsError({ status: 0, code, message: `${what} ${url}: ${reason}` }, { cause: error });
  }
}

/** The service's ErrorResponse as an error; an answer of another shape keeps its status and text. */
async function errorOf(response: Response): Promise<CveRecordsError> {
  const text = await response.text();
  const body = parseJson(text);
  const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
  const headerId = response.headers.get('x-request-id') ?? undefined;
  if (isErrorResponse(body)) {
    const { code, message, details } = body.error;
    return new CveRecordsError({
      status: response.status,
      code,
      message,
      details,
      requestId: body.requestId ?? headerId,
      retryAfterSeconds,
    });
  }
  return new CveRecordsError({
    status: response.status,
    code: 'invalid_response',
    message: `HTTP ${response.status} ${response.statusText}: ${text.slice(0, 200)}`,
    requestId: headerId,
    retryAfterSeconds,
  });
}

function isErrorResponse(body: unknown): body is ErrorResponse {
  if (typeof body !== 'object' || body === null) return false;
  const error = (body as { error?: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `Retry-After` is delay-seconds or an HTTP-date (RFC 9110 §10.2.3). */
function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}
