// Jittered exponential backoff with client-go's reflector figures: 800 ms, x2, jitter 1.0 (a delay d becomes a
// value in [d, 2d)), capped at 30 s (so [30 s, 60 s) at the plateau), back to the start after 2 quiet minutes.
import { type Clock, realClock } from './clock.js';

export interface BackoffOptions {
  readonly initialMs?: number;
  readonly factor?: number;
  /** A delay d is stretched to d + random * jitter * d. */
  readonly jitter?: number;
  readonly maxMs?: number;
  /**
   * Start again from `initialMs` when this long has passed since the previous step. client-go measures it from its
   * last reset, which drops a continuously failing reflector back to 800 ms every 2 minutes; we measure from the
   * last failure, so only a quiet stretch resets.
   */
  readonly resetAfterMs?: number;
}

export const DEFAULT_BACKOFF: Required<BackoffOptions> = {
  initialMs: 800,
  factor: 2,
  jitter: 1,
  maxMs: 30_000,
  resetAfterMs: 120_000,
};

export class Backoff {
  readonly #options: Required<BackoffOptions>;
  #current: number;
  #lastStep: number | undefined;

  constructor(
    options: BackoffOptions = {},
    readonly clock: Clock = realClock,
    readonly random: () => number = Math.random,
  ) {
    this.#options = { ...DEFAULT_BACKOFF, ...options };
    this.#current = this.#options.initialMs;
  }

  /** The next delay in milliseconds; advances the sequence. */
  next(): number {
    const now = this.clock.now();
    if (this.#lastStep !== undefined && now - this.#lastStep > this.#options.resetAfterMs) this.reset();
    this.#lastStep = now;
    const base = this.#current;
    this.#current = Math.min(base * this.#options.factor, this.#options.maxMs);
    return base + this.random() * this.#options.jitter * base;
  }

  /** Waits for the next delay. */
  async wait(signal?: AbortSignal): Promise<number> {
    const ms = this.next();
    await this.clock.sleep(ms, signal);
    return ms;
  }

  reset(): void {
    this.#current = this.#options.initialMs;
    this.#lastStep = undefined;
  }
}
