// Metrics hooks in the shape of client-go's workqueue.MetricsProvider, so a Prometheus (or any other) adapter
// can be written in a few lines without this package depending on a metrics library.

export interface CounterMetric {
  inc(): void;
}

export interface GaugeMetric {
  inc(): void;
  dec(): void;
}

export interface SettableGaugeMetric {
  set(value: number): void;
}

export interface HistogramMetric {
  /** Seconds. */
  observe(value: number): void;
}

/** The metric names client-go (component-base) and controller-runtime register; use them in an adapter. */
export const WORKQUEUE_METRIC_NAMES = {
  depth: 'workqueue_depth',
  adds: 'workqueue_adds_total',
  queueDuration: 'workqueue_queue_duration_seconds',
  workDuration: 'workqueue_work_duration_seconds',
  unfinishedWork: 'workqueue_unfinished_work_seconds',
  longestRunningProcessor: 'workqueue_longest_running_processor_seconds',
  retries: 'workqueue_retries_total',
} as const;

/**
 * Creates the metrics of one queue; `name` is the queue's name (the `name` label). Each factory is called once
 * per queue, except newDepthMetric, which is called once per priority the queue sees: return the same gauge for
 * every priority to drop the `priority` label, or cap its cardinality as controller-runtime does (25).
 */
export interface WorkQueueMetricsProvider {
  /** workqueue_depth{name,priority}: keys waiting to be handed out. */
  newDepthMetric(name: string, priority: number): GaugeMetric;
  /** workqueue_adds_total{name}: adds that made a key dirty (dedupes are not counted). */
  newAddsMetric(name: string): CounterMetric;
  /** workqueue_queue_duration_seconds{name}: from the add to the get that handed the key out. */
  newLatencyMetric(name: string): HistogramMetric;
  /** workqueue_work_duration_seconds{name}: from get to done. */
  newWorkDurationMetric(name: string): HistogramMetric;
  /** workqueue_unfinished_work_seconds{name}: summed age of every in-flight key; reveals stuck workers. */
  newUnfinishedWorkSecondsMetric(name: string): SettableGaugeMetric;
  /** workqueue_longest_running_processor_seconds{name}: age of the oldest in-flight key. */
  newLongestRunningProcessorSecondsMetric(name: string): SettableGaugeMetric;
  /** workqueue_retries_total{name}: adds with a non-zero delay (addAfter, addRateLimited). */
  newRetriesMetric(name: string): CounterMetric;
}

/** The queue's side of the hooks: created once, then called on the hot path. */
export class QueueMetrics {
  readonly #name: string;
  readonly #provider: WorkQueueMetricsProvider;
  readonly #depth = new Map<number, GaugeMetric>();
  readonly #adds: CounterMetric;
  readonly #latency: HistogramMetric;
  readonly #workDuration: HistogramMetric;
  readonly #unfinished: SettableGaugeMetric;
  readonly #longest: SettableGaugeMetric;
  readonly #retries: CounterMetric;

  constructor(name: string, provider: WorkQueueMetricsProvider) {
    this.#name = name;
    this.#provider = provider;
    this.#adds = provider.newAddsMetric(name);
    this.#latency = provider.newLatencyMetric(name);
    this.#workDuration = provider.newWorkDurationMetric(name);
    this.#unfinished = provider.newUnfinishedWorkSecondsMetric(name);
    this.#longest = provider.newLongestRunningProcessorSecondsMetric(name);
    this.#retries = provider.newRetriesMetric(name);
  }

  added(priority: number): void {
    this.#adds.inc();
    this.#depthOf(priority).inc();
  }

  raised(from: number, to: number): void {
    this.#depthOf(from).dec();
    this.#depthOf(to).inc();
  }

  handedOut(priority: number, queuedMs: number): void {
    this.#depthOf(priority).dec();
    this.#latency.observe(queuedMs / 1000);
  }

  done(workMs: number): void {
    this.#workDuration.observe(workMs / 1000);
  }

  retried(): void {
    this.#retries.inc();
  }

  inFlight(unfinishedMs: number, longestMs: number): void {
    this.#unfinished.set(unfinishedMs / 1000);
    this.#longest.set(longestMs / 1000);
  }

  #depthOf(priority: number): GaugeMetric {
    let gauge = this.#depth.get(priority);
    if (gauge === undefined) {
      gauge = this.#provider.newDepthMetric(this.#name, priority);
      this.#depth.set(priority, gauge);
    }
    return gauge;
  }
}
