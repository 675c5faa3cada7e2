// Event-loop lag for /livez: a stuck or starved loop is the one liveness failure a restart can fix.
// perf_hooks' histogram samples from native code on an unref'd libuv timer, so it costs no JS callbacks and
// never keeps the process alive.
import { type ELDHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/** Anything that reports the current event-loop lag; tests pass a fake. */
export interface EventLoopLagSource {
  /** The worst event-loop delay in the recent window, in milliseconds. */
  lagMs(): number;
}

export interface EventLoopLagMonitorOptions {
  /** Sampling interval of the histogram in ms (the smallest lag it can see). Default 20. */
  readonly resolutionMs?: number | undefined;
  /** How far back lagMs() looks, in ms: between one and two windows. Default 10,000. */
  readonly windowMs?: number | undefined;
}

/** Measures event-loop delay with perf_hooks.monitorEventLoopDelay over a sliding window. */
export class EventLoopLagMonitor implements EventLoopLagSource {
  readonly #histogram: ELDHistogram;
  readonly #resolutionMs: number;
  readonly #windowMs: number;
  #windowStart = Date.now();
  #previousMaxNs = 0;
  #closed = false;

  /** Starts sampling at once. Call close() to stop. */
  constructor(options: EventLoopLagMonitorOptions = {}) {
    this.#resolutionMs = Math.max(1, Math.round(options.resolutionMs ?? 20));
    this.#windowMs = options.windowMs ?? 10_000;
    this.#histogram = monitorEventLoopDelay({ resolution: this.#resolutionMs });
    this.#histogram.enable();
  }

  /**
   * The worst delay beyond the sampling interval seen in the current and the previous window, in ms.
   * Rotating two windows means a spike is reported for at least one window and forgotten after two.
   */
  lagMs(): number {
    const now = Date.now();
    if (now - this.#windowStart >= this.#windowMs) {
      this.#previousMaxNs = this.#histogram.max;
      this.#histogram.reset();
      this.#windowStart = now;
    }
    // The histogram records whole sampling intervals; lag is what exceeds the interval.
    const worstMs = Math.max(this.#previousMaxNs, this.#histogram.max) / 1e6;
    return Math.max(0, worstMs - this.#resolutionMs);
  }

  /** Samples in the current window; the first arrives one interval after construction. */
  get samples(): number {
    return this.#histogram.count;
  }

  /** Stops sampling. lagMs() keeps returning the last figures. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#histogram.disable();
  }
}
