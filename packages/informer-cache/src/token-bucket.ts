// A client-side token bucket (client-go's flowcontrol.NewTokenBucketRateLimiter): `qps` tokens a second, at most
// `burst` saved up. Callers queue in order: each takes a token, possibly one that will exist only in the future,
// and sleeps until then.
import { type Clock, realClock } from './clock.js';

export interface RateLimitOptions {
  /** Sustained requests per second; 0 or less disables the limit. */
  readonly qps: number;
  /** Requests allowed at once after a quiet spell. */
  readonly burst: number;
}

export class TokenBucket {
  #tokens: number;
  #last: number;

  constructor(
    readonly options: RateLimitOptions,
    readonly clock: Clock = realClock,
  ) {
    if (options.qps > 0 && options.burst < 1)
      throw new RangeError(`burst must be at least 1 (got ${options.burst})`);
    this.#tokens = options.burst;
    this.#last = clock.now();
  }

  get unlimited(): boolean {
    return this.options.qps <= 0;
  }

  /** Tokens available now (negative while callers are queued for future tokens). */
  get tokens(): number {
    this.#refill();
    return this.#tokens;
  }

  /** Takes a token if one is available now, without waiting. */
  tryAcquire(): boolean {
    if (this.unlimited) return true;
    this.#refill();
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  /** Waits for a token. Resolves to the milliseconds waited. An abort gives the token back. */
  async acquire(signal?: AbortSignal): Promise<number> {
    if (this.unlimited) return 0;
    signal?.throwIfAborted();
    this.#refill();
    this.#tokens -= 1;
    if (this.#tokens >= 0) return 0;
    const waitMs = (-this.#tokens / this.options.qps) * 1000;
    try {
      await this.clock.sleep(waitMs, signal);
    } catch (error) {
      this.#tokens += 1;
      throw error;
    }
    return waitMs;
  }

  #refill(): void {
    const now = this.clock.now();
    const elapsed = now - this.#last;
    this.#last = now;
    if (elapsed > 0)
      this.#tokens = Math.min(this.options.burst, this.#tokens + (elapsed / 1000) * this.options.qps);
  }
}
