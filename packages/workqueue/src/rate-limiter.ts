// Rate limiters decide how long a failed key waits before its retry (client-go's workqueue.RateLimiter).
// They are plain objects behind one interface so a controller can combine or replace them.

/** Decides the delay before a key's next retry and counts its failures. */
export interface RateLimiter {
  /** Records one more failure of `key` and returns the milliseconds to wait before retrying it. */
  when(key: string): number;
  /** Clears the failure history of `key` (it succeeded, or the caller gave up on it). */
  forget(key: string): void;
  /** How many failures of `key` have been recorded since the last forget. */
  numRequeues(key: string): number;
}

/** controller-runtime's per-item default with the priority queue: 5 ms, doubling per failure. */
export const DEFAULT_BASE_DELAY_MS = 5;
/** ... capped at 1000 s (reached after about 18 failures). */
export const DEFAULT_MAX_DELAY_MS = 1_000_000;

export interface ExponentialFailureOptions {
  /** Delay after the first failure. Default 5 ms. */
  readonly baseDelayMs?: number;
  /** The delay never exceeds this. Default 1000 s. */
  readonly maxDelayMs?: number;
}

/** Per-key exponential backoff: baseDelay * 2^(failures so far), capped at maxDelay. */
export function exponentialFailureRateLimiter(options: ExponentialFailureOptions = {}): RateLimiter {
  const base = options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
  const max = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  if (!(base >= 0) || !(max >= base)) {
    throw new RangeError(
      `exponential rate limiter needs 0 <= baseDelayMs <= maxDelayMs (got ${base} and ${max})`,
    );
  }
  const failures = new Map<string, number>();
  return {
    when(key) {
      const n = failures.get(key) ?? 0;
      failures.set(key, n + 1);
      // 2 ** n overflows to Infinity after ~1023 failures; min() still yields max.
      return Math.min(base * 2 ** n, max);
    },
    forget(key) {
      failures.delete(key);
    },
    numRequeues(key) {
      return failures.get(key) ?? 0;
    },
  };
}

export interface TokenBucketOptions {
  /** Sustained retries per second across all keys. */
  readonly qps: number;
  /** Retries allowed at once after a quiet spell. */
  readonly burst: number;
  /** Monotonic milliseconds; defaults to performance.now(). Tests pass a fake. */
  readonly now?: () => number;
}

/**
 * An overall token bucket (client-go's BucketRateLimiter over golang.org/x/time/rate): each call reserves a
 * token, possibly one that exists only in the future, and returns how long until it does. It keeps no per-key
 * state, so forget does nothing and numRequeues is always 0.
 */
export function tokenBucketRateLimiter(options: TokenBucketOptions): RateLimiter {
  const { qps, burst } = options;
  if (!(qps > 0) || !(burst >= 1)) {
    throw new RangeError(`token bucket needs qps > 0 and burst >= 1 (got qps ${qps}, burst ${burst})`);
  }
  const now = options.now ?? (() => performance.now());
  let tokens = burst;
  let last = now();
  return {
    when() {
      const t = now();
      tokens = Math.min(burst, tokens + ((t - last) / 1000) * qps);
      last = t;
      tokens -= 1;
      return tokens >= 0 ? 0 : (-tokens / qps) * 1000;
    },
    forget() {},
    numRequeues() {
      return 0;
    },
  };
}

/** The longest delay any of `limiters` asks for; failures are recorded in all of them. */
export function maxOf(...limiters: readonly RateLimiter[]): RateLimiter {
  if (limiters.length === 0) throw new RangeError('maxOf needs at least one rate limiter');
  return {
    when(key) {
      let delay = 0;
      for (const l of limiters) delay = Math.max(delay, l.when(key));
      return delay;
    },
    forget(key) {
      for (const l of limiters) l.forget(key);
    },
    numRequeues(key) {
      let n = 0;
      for (const l of limiters) n = Math.max(n, l.numRequeues(key));
      return n;
    },
  };
}

/**
 * client-go's DefaultControllerRateLimiter: per-key exponential 5 ms .. 1000 s, and 10 retries/s overall with a
 * burst of 100. The WorkQueue default is the per-key part alone, as controller-runtime's priority queue uses.
 */
export function defaultControllerRateLimiter(now?: () => number): RateLimiter {
  return maxOf(
    exponentialFailureRateLimiter(),
    tokenBucketRateLimiter(now === undefined ? { qps: 10, burst: 100 } : { qps: 10, burst: 100, now }),
  );
}
