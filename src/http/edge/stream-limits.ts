// Open streams per address. A stream holds a connection for as long as its client likes, so the request
// rate limit alone would let one address hold any number open; this bounds them like the rate limit
// bounds requests: per address (IPv6: per /64), with a 429 and `Retry-After` for one more. Counted in
// each process: behind --workers, each worker admits its own share.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../contract/index.js';
import { rateKey } from './client-address.js';

/** Seconds a refused client is told to wait: streams end when their clients leave, which is not foreseeable. */
const RETRY_AFTER_SECONDS = 30;

export class StreamLimits {
  readonly #open = new Map<string, number>();

  constructor(readonly perAddress: number) {}

  /**
   * Counts one more stream of the request's client, or sets `Retry-After` and throws `too_many_streams`;
   * the function returned releases it (once, however often it is called).
   */
  admit(request: FastifyRequest, reply: FastifyReply): () => void {
    const key = rateKey(request.client);
    const open = this.#open.get(key) ?? 0;
    if (open >= this.perAddress) {
      reply.header('retry-after', RETRY_AFTER_SECONDS);
      throw new ServiceError(
        'too_many_streams',
        `This address already holds ${this.perAddress} open streams; close one, or retry after ${RETRY_AFTER_SECONDS} seconds.`,
        { limit: this.perAddress, retryAfterSeconds: RETRY_AFTER_SECONDS },
      );
    }
    this.#open.set(key, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#open.get(key) ?? 1) - 1;
      if (left === 0) this.#open.delete(key);
      else this.#open.set(key, left);
    };
  }
}
