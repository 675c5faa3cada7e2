// A work queue of string keys with client-go's guarantees (a key is processed by at most one worker at a time;
// an add while queued is a no-op; an add while processing re-queues the key at done) plus controller-runtime's
// priority lanes, delays and per-key rate limiting.
import { DelayedItems } from './delayed-items.js';
import { DrainTimeoutError, WorkQueueAbortedError } from './errors.js';
import { yieldIfBusy } from './event-loop-turn.js';
import { QueueMetrics, type WorkQueueMetricsProvider } from './metrics.js';
import { checkPriority, DEFAULT_PRIORITY } from './priority.js';
import { exponentialFailureRateLimiter, type RateLimiter } from './rate-limiter.js';
import { type QueueEntry, ReadyQueue } from './ready-queue.js';

/** addAll looks at the clock every this many keys. */
const ADD_ALL_CHECK_EVERY = 128;

export interface WorkQueueOptions {
  /** Names the queue in metrics, snapshots and errors; usually the controller's name. Default "workqueue". */
  readonly name?: string;
  /** Delays for addRateLimited. Default: per-key exponential 5 ms .. 1000 s (controller-runtime's default). */
  readonly rateLimiter?: RateLimiter;
  /** Metrics hooks; none by default. */
  readonly metrics?: WorkQueueMetricsProvider;
  /** How often the in-flight gauges are updated when metrics are on. Default 500 ms, as client-go. */
  readonly unfinishedWorkUpdatePeriodMs?: number;
  /** Monotonic milliseconds; defaults to performance.now(). */
  readonly now?: () => number;
}

export interface AddOptions {
  /** Higher is handed out first; default 0. Use LOW_PRIORITY for initial-list items. */
  readonly priority?: number;
}

export interface AddAllOptions extends AddOptions {
  /** Stops adding; the keys added so far stay queued. */
  readonly signal?: AbortSignal;
}

export interface DrainOptions {
  /** Cancels the wait; rejects with WorkQueueAbortedError. The queue stays shut down. */
  readonly signal?: AbortSignal;
  /** Rejects with DrainTimeoutError after this many milliseconds. Omit only where the signal bounds the wait. */
  readonly timeoutMs?: number;
}

/** A point-in-time view of a queue for dashboards and /debug endpoints. */
export interface WorkQueueSnapshot {
  readonly name: string;
  /** Keys that need processing, including keys added while in flight (client-go's workqueue_depth). */
  readonly depth: number;
  /** Keys handed out and not yet done. */
  readonly inFlight: number;
  /** Of `depth`, the keys added while in flight; they are queued again at their done. */
  readonly dirtyInFlight: number;
  /** Keys waiting for their addAfter / rate-limit delay. */
  readonly delayed: number;
  /** Callers blocked in get(), i.e. idle workers. */
  readonly idleGetters: number;
  /** `depth` per priority, highest priority first; priorities with no keys are left out. */
  readonly byPriority: readonly { readonly priority: number; readonly depth: number }[];
  /** Summed age of the in-flight keys, in seconds. */
  readonly unfinishedWorkSeconds: number;
  /** Age of the oldest in-flight key, in seconds. */
  readonly longestRunningProcessorSeconds: number;
  readonly shuttingDown: boolean;
}

interface Getter {
  readonly resolve: (key: string | undefined) => void;
}

const DEFAULT_NAME = 'workqueue';

export class WorkQueue {
  readonly name: string;
  readonly #now: () => number;
  readonly #rateLimiter: RateLimiter;
  readonly #metrics: QueueMetrics | undefined;
  readonly #metricsTimer: ReturnType<typeof setInterval> | undefined;
  /** Every key that needs processing, queued or waiting for its in-flight run to finish. */
  readonly #dirty = new Map<string, QueueEntry>();
  /** Keys handed out and not yet done, oldest first (Map order is insertion order). */
  readonly #processing = new Map<string, QueueEntry>();
  readonly #ready = new ReadyQueue();
  readonly #delayed: DelayedItems;
  readonly #depthByPriority = new Map<number, number>();
  /** Blocked get() callers in arrival order; a Set so an abort removes one in O(1). */
  readonly #getters = new Set<Getter>();
  readonly #drainers = new Set<() => void>();
  #dispatchScheduled = false;
  #shuttingDown = false;

  constructor(options: WorkQueueOptions = {}) {
    this.name = options.name ?? DEFAULT_NAME;
    this.#now = options.now ?? (() => performance.now());
    this.#rateLimiter = options.rateLimiter ?? exponentialFailureRateLimiter();
    this.#delayed = new DelayedItems(this.#now, (key, priority) => this.add(key, { priority }));
    if (options.metrics !== undefined) {
      this.#metrics = new QueueMetrics(this.name, options.metrics);
      const period = options.unfinishedWorkUpdatePeriodMs ?? 500;
      this.#metricsTimer = setInterval(() => this.#updateInFlightMetrics(), period);
      this.#metricsTimer.unref?.();
    }
  }

  /** Keys that need processing, including keys added while in flight (client-go's workqueue_depth). */
  get depth(): number {
    return this.#dirty.size;
  }

  /** True after shutDown or shutDownWithDrain. */
  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /**
   * Marks `key` as needing processing. A key already queued is not queued twice, but a higher priority raises
   * it (a lower one never lowers it). A key being processed is queued again when its worker calls done.
   * Ignored after shutdown.
   */
  add(key: string, options?: AddOptions): void {
    if (this.#shuttingDown) return;
    const priority = options?.priority === undefined ? DEFAULT_PRIORITY : checkPriority(options.priority);
    const existing = this.#dirty.get(key);
    if (existing !== undefined) {
      if (priority > existing.priority) this.#raise(existing, priority);
      return;
    }
    const entry: QueueEntry = { key, priority, addedAt: this.#now(), queued: false, startedAt: 0 };
    this.#dirty.set(key, entry);
    this.#countDepth(priority, 1);
    this.#metrics?.added(priority);
    if (this.#processing.has(key)) return;
    this.#ready.push(entry);
    this.#scheduleDispatch();
  }

  /**
   * Adds every key as `add` does, without holding the event loop: a bulk requeue (every binding after a Cluster
   * change, every Work of a member that connected) is 100,000 adds at full scale, ~300 ms in one piece, so they
   * go in slices with a turn of the event loop in between. Resolves with how many keys were handed to `add`;
   * stops early at shutdown or when `signal` aborts.
   */
  async addAll(keys: Iterable<string>, options: AddAllOptions = {}): Promise<number> {
    const priority = options.priority === undefined ? DEFAULT_PRIORITY : checkPriority(options.priority);
    let added = 0;
    for (const key of keys) {
      // Awaiting per key would cost a promise each; the clock is cheap next to a hundred adds.
      if (added % ADD_ALL_CHECK_EVERY === 0 && added > 0) await yieldIfBusy();
      if (this.#shuttingDown || options.signal?.aborted) break;
      this.add(key, { priority });
      added++;
    }
    return added;
  }

  /**
   * Adds `key` after `delayMs`. One timer serves all delayed keys. A key already waiting keeps the earlier of
   * its due times and the higher priority. The key is added even if it is queued or processed meanwhile, as in
   * client-go: a requested later run is never lost. Waiting keys are dropped at shutdown.
   */
  addAfter(key: string, delayMs: number, options?: AddOptions): void {
    if (this.#shuttingDown) return;
    const priority = options?.priority === undefined ? DEFAULT_PRIORITY : checkPriority(options.priority);
    if (Number.isNaN(delayMs)) {
      throw new RangeError(`addAfter("${key}") needs a delay in milliseconds (got NaN)`);
    }
    if (!(delayMs > 0)) {
      this.add(key, { priority });
      return;
    }
    this.#metrics?.retried();
    this.#delayed.schedule(key, this.#now() + delayMs, priority);
  }

  /**
   * Adds `key` after the rate limiter's delay for it and records a failure. Without an explicit priority, a key
   * that is in flight keeps the priority it was handed out with, so a failing start-up item stays behind
   * newer changes.
   */
  addRateLimited(key: string, options?: AddOptions): void {
    if (this.#shuttingDown) return;
    const priority = options?.priority ?? this.inFlightPriority(key) ?? DEFAULT_PRIORITY;
    this.addAfter(key, this.#rateLimiter.when(key), { priority });
  }

  /** Clears the rate limiter's failure history of `key`; call it when the key was processed successfully. */
  forget(key: string): void {
    this.#rateLimiter.forget(key);
  }

  /** Failures recorded for `key` since the last forget. */
  numRequeues(key: string): number {
    return this.#rateLimiter.numRequeues(key);
  }

  /** The priority `key` was handed out with while it is in flight; undefined when it is not. */
  inFlightPriority(key: string): number | undefined {
    return this.#processing.get(key)?.priority;
  }

  /**
   * The next key, highest priority first. Waits while the queue is empty. After shutdown it still hands out
   * the keys already queued (client-go's behaviour), then resolves `undefined`: the caller's signal to stop.
   * The caller must call done(key) when finished with it. Rejects with WorkQueueAbortedError when `signal` aborts.
   */
  get(signal?: AbortSignal): Promise<string | undefined> {
    if (signal?.aborted) {
      return Promise.reject(new WorkQueueAbortedError(this.name, 'get', 0, signal.reason));
    }
    if (this.#getters.size === 0) {
      const entry = this.#takeNext();
      if (entry !== undefined) return Promise.resolve(entry.key);
      if (this.#shuttingDown) return Promise.resolve(undefined);
    }
    const startedAt = this.#now();
    return new Promise<string | undefined>((resolve, reject) => {
      const onAbort = (): void => {
        this.#getters.delete(getter);
        reject(new WorkQueueAbortedError(this.name, 'get', this.#now() - startedAt, signal?.reason));
      };
      const getter: Getter = {
        resolve: (key) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(key);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#getters.add(getter);
    });
  }

  /** Ends the processing of `key`. If it was added meanwhile it is queued again. Unknown keys are ignored. */
  done(key: string): void {
    const entry = this.#processing.get(key);
    if (entry === undefined) return;
    this.#processing.delete(key);
    this.#metrics?.done(this.#now() - entry.startedAt);
    const again = this.#dirty.get(key);
    if (again !== undefined) {
      this.#ready.push(again);
      this.#scheduleDispatch();
    }
    if (this.#processing.size === 0 && this.#drainers.size > 0) {
      for (const drained of [...this.#drainers]) drained();
    }
  }

  /**
   * Stops accepting adds and drops delayed keys. Keys already queued are still handed out; once none is left,
   * every blocked and later get() resolves `undefined`.
   */
  shutDown(): void {
    if (this.#shuttingDown) return;
    this.#shuttingDown = true;
    this.#delayed.clear();
    if (this.#metricsTimer !== undefined) clearInterval(this.#metricsTimer);
    this.#dispatch();
  }

  /** shutDown, then wait until no key is in flight. Rejects with DrainTimeoutError at the deadline. */
  shutDownWithDrain(options: DrainOptions = {}): Promise<void> {
    this.shutDown();
    if (this.#processing.size === 0) return Promise.resolve();
    const { signal, timeoutMs } = options;
    if (signal?.aborted) {
      return Promise.reject(new WorkQueueAbortedError(this.name, 'drain', 0, signal.reason));
    }
    const startedAt = this.#now();
    return new Promise<void>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle = (error?: Error): void => {
        this.#drainers.delete(drained);
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (error === undefined) resolve();
        else reject(error);
      };
      const drained = (): void => settle();
      const onAbort = (): void =>
        settle(new WorkQueueAbortedError(this.name, 'drain', this.#now() - startedAt, signal?.reason));
      signal?.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs !== undefined && Number.isFinite(timeoutMs)) {
        timer = setTimeout(
          () => {
            const keys = [...this.#processing.keys()].slice(0, 10);
            settle(new DrainTimeoutError(this.name, this.#now() - startedAt, this.#processing.size, keys));
          },
          Math.max(0, timeoutMs),
        );
      }
      this.#drainers.add(drained);
    });
  }

  /** A point-in-time view for dashboards. */
  snapshot(): WorkQueueSnapshot {
    const { unfinishedMs, longestMs } = this.#inFlightAges();
    const byPriority = [...this.#depthByPriority]
      .map(([priority, depth]) => ({ priority, depth }))
      .sort((a, b) => b.priority - a.priority);
    return {
      name: this.name,
      depth: this.#dirty.size,
      inFlight: this.#processing.size,
      dirtyInFlight: this.#dirty.size - this.#ready.size,
      delayed: this.#delayed.size,
      idleGetters: this.#getters.size,
      byPriority,
      unfinishedWorkSeconds: unfinishedMs / 1000,
      longestRunningProcessorSeconds: longestMs / 1000,
      shuttingDown: this.#shuttingDown,
    };
  }

  #raise(entry: QueueEntry, priority: number): void {
    // A fresh entry, so a stale one left in a lower bucket is recognised and skipped; the add time is kept so
    // queue_duration still measures from the first add.
    const raised: QueueEntry = {
      key: entry.key,
      priority,
      addedAt: entry.addedAt,
      queued: false,
      startedAt: 0,
    };
    this.#dirty.set(entry.key, raised);
    this.#countDepth(entry.priority, -1);
    this.#countDepth(priority, 1);
    this.#metrics?.raised(entry.priority, priority);
    if (entry.queued) {
      this.#ready.remove(entry);
      this.#ready.push(raised);
    }
  }

  #takeNext(): QueueEntry | undefined {
    const entry = this.#ready.pop();
    if (entry === undefined) return undefined;
    const now = this.#now();
    this.#dirty.delete(entry.key);
    this.#countDepth(entry.priority, -1);
    entry.startedAt = now;
    this.#processing.set(entry.key, entry);
    this.#metrics?.handedOut(entry.priority, now - entry.addedAt);
    return entry;
  }

  // Handing keys to blocked getters waits for the current task's synchronous adds to finish, so a burst of adds
  // is handed out in priority order rather than in arrival order.
  #scheduleDispatch(): void {
    if (this.#dispatchScheduled || this.#getters.size === 0) return;
    this.#dispatchScheduled = true;
    queueMicrotask(() => {
      this.#dispatchScheduled = false;
      this.#dispatch();
    });
  }

  #dispatch(): void {
    for (const getter of this.#getters) {
      const entry = this.#takeNext();
      if (entry === undefined) break;
      this.#getters.delete(getter);
      getter.resolve(entry.key);
    }
    if (this.#shuttingDown && this.#ready.size === 0) {
      for (const getter of this.#getters) getter.resolve(undefined);
      this.#getters.clear();
    }
  }

  #countDepth(priority: number, delta: number): void {
    const n = (this.#depthByPriority.get(priority) ?? 0) + delta;
    if (n === 0) this.#depthByPriority.delete(priority);
    else this.#depthByPriority.set(priority, n);
  }

  #inFlightAges(): { unfinishedMs: number; longestMs: number } {
    const now = this.#now();
    let unfinishedMs = 0;
    let longestMs = 0;
    for (const entry of this.#processing.values()) {
      const age = now - entry.startedAt;
      unfinishedMs += age;
      if (age > longestMs) longestMs = age;
    }
    return { unfinishedMs, longestMs };
  }

  #updateInFlightMetrics(): void {
    const { unfinishedMs, longestMs } = this.#inFlightAges();
    this.#metrics?.inFlight(unfinishedMs, longestMs);
  }
}
