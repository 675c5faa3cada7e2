export { DrainTimeoutError, WorkQueueAbortedError, WorkQueueError } from './errors.js';
export { EVENT_LOOP_SLICE_MS, nextTurn, sliceKnownUsed, sliceUsed, yieldIfBusy } from './event-loop-turn.js';
export type {
  CounterMetric,
  GaugeMetric,
  HistogramMetric,
  SettableGaugeMetric,
  WorkQueueMetricsProvider,
} from './metrics.js';
export { WORKQUEUE_METRIC_NAMES } from './metrics.js';
export { DEFAULT_PRIORITY, LOW_PRIORITY } from './priority.js';
export type {
  AddAllOptions,
  AddOptions,
  DrainOptions,
  WorkQueueOptions,
  WorkQueueSnapshot,
} from './queue.js';
export { WorkQueue } from './queue.js';
export type { ExponentialFailureOptions, RateLimiter, TokenBucketOptions } from './rate-limiter.js';
export {
  DEFAULT_BASE_DELAY_MS,
  DEFAULT_MAX_DELAY_MS,
  defaultControllerRateLimiter,
  exponentialFailureRateLimiter,
  maxOf,
  tokenBucketRateLimiter,
} from './rate-limiter.js';
export type { Reconcile, Result, RunWorkersOptions } from './workers.js';
export { runWorkers } from './workers.js';
