// The manager's Prometheus metrics. Informer, reader and request figures arrive through informer-cache's
// CacheMetrics hooks; work queues report through their own hooks. warmstart_direct_reads_total is derived
// from request accounting, not counted by hand: any get or list a controller (not an informer) sends is one.
import type { CacheMetrics, InformerLabels, RequestLabels } from '@warmstart/informer-cache';
import type { ControllerMetricsProvider } from '@warmstart/runtime';
import type { EventLoopStallRecorder } from '@warmstart/sync-gate';
import type { WorkQueueMetricsProvider } from '@warmstart/workqueue';
import { Counter, collectDefaultMetrics, Gauge, Histogram, type LabelValues, Registry } from 'prom-client';

const SECONDS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** What the event-loop stall metrics read: the manager's EventLoopStallRecorder, or a fake in tests. */
export type EventLoopStallSource = Pick<EventLoopStallRecorder, 'worst' | 'totals'>;

export interface ManagerMetricsOptions {
  /** Where warmstart_event_loop_stall_* come from; without it those metrics have no samples. */
  readonly eventLoopStalls?: EventLoopStallSource | undefined;
}

const STALL_HELP =
  'a gap of over 30 ms between the 10 ms ticks of a timer on the main thread, split into on_cpu (the thread ran; GC included), gc (GC pauses) and off_cpu (asleep, or runnable while the cores ran something else). on_cpu and off_cpu are absent without process.threadCpuUsage (Node < 23.9)';

export class ManagerMetrics implements CacheMetrics {
  readonly registry = new Registry();
  readonly #requests = new Counter({
    name: 'rest_client_requests_total',
    help: 'Requests to Kubernetes API servers, by cluster, verb, resource, source (informer or controller) and status code.',
    labelNames: ['cluster', 'verb', 'resource', 'source', 'code'],
    registers: [this.registry],
  });
  readonly #requestDuration = new Histogram({
    name: 'rest_client_request_duration_seconds',
    help: 'Latency of requests to Kubernetes API servers (for watches: how long the stream lasted).',
    labelNames: ['cluster', 'verb', 'resource'],
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly #rateLimiter = new Histogram({
    name: 'rest_client_rate_limiter_duration_seconds',
    help: 'Time requests waited for the client-side rate limiter.',
    labelNames: ['cluster', 'verb'],
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly #directReads = new Counter({
    name: 'warmstart_direct_reads_total',
    help: 'Reads sent to an API server by anything but an informer. Zero outside the fallback strategy.',
    labelNames: ['cluster', 'verb', 'resource', 'source'],
    registers: [this.registry],
  });
  readonly #synced = new Gauge({
    name: 'warmstart_informer_synced',
    help: '1 when the informer of this cluster and resource has synced.',
    labelNames: ['cluster', 'resource'],
    registers: [this.registry],
  });
  readonly #objects = new Gauge({
    name: 'warmstart_informer_objects',
    help: 'Objects in the informer store.',
    labelNames: ['cluster', 'resource'],
    registers: [this.registry],
  });
  readonly #listDuration = new Histogram({
    name: 'warmstart_informer_list_duration_seconds',
    help: 'Duration of (re)lists, by method: a paged LIST or a WatchList stream.',
    labelNames: ['cluster', 'resource', 'method'],
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly #relists = new Counter({
    name: 'warmstart_informer_relists_total',
    help: 'Relists, by reason (initial, expired = 410 Gone, error, watchdog).',
    labelNames: ['cluster', 'resource', 'reason'],
    registers: [this.registry],
  });
  readonly #watchRestarts = new Counter({
    name: 'warmstart_informer_watch_restarts_total',
    help: 'Watches reopened, by reason.',
    labelNames: ['cluster', 'resource', 'reason'],
    registers: [this.registry],
  });
  readonly #readerWaits = new Counter({
    name: 'warmstart_reader_waits_total',
    help: 'Cache reads that had to wait for their informer to sync, by outcome.',
    labelNames: ['cluster', 'resource', 'outcome'],
    registers: [this.registry],
  });
  readonly #readerWaitSeconds = new Histogram({
    name: 'warmstart_reader_wait_seconds',
    help: 'How long cache reads waited for their informer to sync.',
    labelNames: ['cluster', 'resource'],
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly #leader = new Gauge({
    name: 'warmstart_leader',
    help: '1 while this process is the leader.',
    registers: [this.registry],
  });
  readonly #stallMax = new Gauge({
    name: 'warmstart_event_loop_stall_max_seconds',
    help: `The longest event-loop stall since the process started, by part (total = the whole gap). A stall is ${STALL_HELP}.`,
    labelNames: ['part'],
    registers: [this.registry],
    collect: () => {
      const source = this.#stallSource;
      if (!source) return;
      const worst = source.worst;
      const cpuKnown = source.totals().onCpuMs !== undefined;
      this.#stallMax.reset();
      for (const [part, ms] of [
        ['total', worst?.gapMs ?? 0],
        ['on_cpu', worst ? worst.onCpuMs : cpuKnown ? 0 : undefined],
        ['gc', worst?.gcMs ?? 0],
        ['off_cpu', worst ? worst.offCpuMs : cpuKnown ? 0 : undefined],
        ['run_queue', worst ? worst.runQueueMs : undefined],
        ['other_threads', worst ? worst.otherThreadsCpuMs : undefined],
      ] as const) {
        if (ms !== undefined) this.#stallMax.set({ part }, ms / 1000);
      }
    },
  });
  readonly #stalls = new Counter({
    name: 'warmstart_event_loop_stalls_total',
    help: `Event-loop stalls at least min_seconds long since the process started. A stall is ${STALL_HELP}.`,
    labelNames: ['min_seconds'],
    registers: [this.registry],
    collect: () => {
      const source = this.#stallSource;
      if (!source) return;
      const totals = source.totals();
      this.#stalls.reset();
      this.#stalls.inc({ min_seconds: '0.1' }, totals.over100Ms);
      this.#stalls.inc({ min_seconds: '0.2' }, totals.over200Ms);
    },
  });
  readonly #stallSeconds = new Counter({
    name: 'warmstart_event_loop_stall_seconds_total',
    help: `Seconds spent in event-loop stalls since the process started, by part (total = the whole gaps). A stall is ${STALL_HELP}.`,
    labelNames: ['part'],
    registers: [this.registry],
    collect: () => {
      const source = this.#stallSource;
      if (!source) return;
      const totals = source.totals();
      this.#stallSeconds.reset();
      for (const [part, ms] of [
        ['total', totals.gapMs],
        ['on_cpu', totals.onCpuMs],
        ['gc', totals.gcMs],
        ['off_cpu', totals.offCpuMs],
        ['run_queue', totals.runQueueMs],
      ] as const) {
        if (ms !== undefined) this.#stallSeconds.inc({ part }, ms / 1000);
      }
    },
  });
  readonly #stallSource: EventLoopStallSource | undefined;

  readonly #strategy = new Gauge({
    name: 'warmstart_cache_sync_strategy',
    help: 'The --cache-sync-strategy in force (value 1).',
    labelNames: ['strategy'],
    registers: [this.registry],
  });

  readonly #wqDepth = new Gauge({
    name: 'workqueue_depth',
    help: 'Current depth of the work queue, by priority band (low = initial-list backlog).',
    labelNames: ['name', 'priority'],
    registers: [this.registry],
  });
  readonly #wqAdds = new Counter({
    name: 'workqueue_adds_total',
    help: 'Adds handled by the work queue.',
    labelNames: ['name'],
    registers: [this.registry],
  });
  readonly #wqLatency = new Histogram({
    name: 'workqueue_queue_duration_seconds',
    help: 'How long an item waits in the queue before it is handed out.',
    labelNames: ['name'],
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly #wqWork = new Histogram({
    name: 'workqueue_work_duration_seconds',
    help: 'How long processing an item takes.',
    labelNames: ['name'],
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly #wqUnfinished = new Gauge({
    name: 'workqueue_unfinished_work_seconds',
    help: 'Seconds of work in progress not yet observed by work_duration; large values mean stuck workers.',
    labelNames: ['name'],
    registers: [this.registry],
  });
  readonly #wqLongest = new Gauge({
    name: 'workqueue_longest_running_processor_seconds',
    help: 'Seconds the longest running item has been processed.',
    labelNames: ['name'],
    registers: [this.registry],
  });
  readonly #wqRetries = new Counter({
    name: 'workqueue_retries_total',
    help: 'Retries handled by the work queue.',
    labelNames: ['name'],
    registers: [this.registry],
  });

  readonly #reconcileTotal = new Counter({
    name: 'controller_runtime_reconcile_total',
    help: 'Reconciles per controller, by result (success, error, requeue, requeue_after).',
    labelNames: ['controller', 'result'],
    registers: [this.registry],
  });
  readonly #reconcileErrors = new Counter({
    name: 'controller_runtime_reconcile_errors_total',
    help: 'Reconciles per controller that failed.',
    labelNames: ['controller'],
    registers: [this.registry],
  });
  readonly #reconcileTime = new Histogram({
    name: 'controller_runtime_reconcile_time_seconds',
    help: 'How long each reconcile took, per controller.',
    labelNames: ['controller'],
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly #activeWorkers = new Gauge({
    name: 'controller_runtime_active_workers',
    help: 'Workers reconciling now, per controller.',
    labelNames: ['controller'],
    registers: [this.registry],
  });
  readonly #maxConcurrent = new Gauge({
    name: 'controller_runtime_max_concurrent_reconciles',
    help: 'Workers per controller.',
    labelNames: ['controller'],
    registers: [this.registry],
  });

  /** Per-controller metrics under controller-runtime's names. */
  readonly controllers: ControllerMetricsProvider = {
    newReconcileTotalMetric: (controller, result) => this.#reconcileTotal.labels({ controller, result }),
    newReconcileErrorsMetric: (controller) => this.#reconcileErrors.labels({ controller }),
    newReconcileTimeMetric: (controller) => this.#reconcileTime.labels({ controller }),
    newActiveWorkersMetric: (controller) => this.#activeWorkers.labels({ controller }),
    newMaxConcurrentReconcilesMetric: (controller) => this.#maxConcurrent.labels({ controller }),
  };

  /** Work-queue metrics under client-go's names; priorities fold into two bands to bound cardinality. */
  readonly workqueue: WorkQueueMetricsProvider = {
    newDepthMetric: (name, priority) =>
      this.#wqDepth.labels({ name, priority: priority < 0 ? 'low' : 'normal' }),
    newAddsMetric: (name) => this.#wqAdds.labels({ name }),
    newLatencyMetric: (name) => this.#wqLatency.labels({ name }),
    newWorkDurationMetric: (name) => this.#wqWork.labels({ name }),
    newUnfinishedWorkSecondsMetric: (name) => this.#wqUnfinished.labels({ name }),
    newLongestRunningProcessorSecondsMetric: (name) => this.#wqLongest.labels({ name }),
    newRetriesMetric: (name) => this.#wqRetries.labels({ name }),
  };

  constructor(strategy: string, options: ManagerMetricsOptions = {}) {
    this.#stallSource = options.eventLoopStalls;
    this.#strategy.set({ strategy }, 1);
    // A labelled counter has no sample until its first increment, and a scraper reads a missing series as
    // "unknown", not 0: an unlabelled 0 says "no direct read so far" from the first scrape on.
    this.#directReads.inc(0);
    // process_* and nodejs_* (resident memory, heap by space, event-loop lag, GC): what an operator sizes the
    // Pod by and alerts on, read when scraped.
    collectDefaultMetrics({ register: this.registry });
  }

  listCompleted(l: InformerLabels, method: 'list' | 'watch-list', durationMs: number): void {
    this.#listDuration.observe({ ...l, method }, durationMs / 1000);
  }
  relisted(l: InformerLabels, reason: string): void {
    this.#relists.inc({ ...l, reason });
  }
  watchRestarted(l: InformerLabels, reason: string): void {
    this.#watchRestarts.inc({ ...l, reason });
  }
  objects(l: InformerLabels, count: number): void {
    this.#objects.set({ ...l }, count);
  }
  synced(l: InformerLabels, synced: boolean): void {
    this.#synced.set({ ...l }, synced ? 1 : 0);
  }
  readerWaited(l: InformerLabels, durationMs: number, outcome: string): void {
    this.#readerWaits.inc({ ...l, outcome });
    this.#readerWaitSeconds.observe({ ...l }, durationMs / 1000);
  }
  requestCompleted(l: RequestLabels, durationMs: number): void {
    this.#requests.inc({
      cluster: l.cluster,
      verb: l.verb,
      resource: l.resource,
      source: l.source,
      code: String(l.code),
    });
    this.#requestDuration.observe(
      { cluster: l.cluster, verb: l.verb, resource: l.resource },
      durationMs / 1000,
    );
    // Non-resource requests (discovery, a member's /readyz) carry their path as `resource` and read no object,
    // so they are not direct reads; any other get or list by anything but an informer is one.
    if ((l.verb === 'get' || l.verb === 'list') && l.source !== 'informer' && !l.resource.startsWith('/')) {
      this.#directReads.inc({ cluster: l.cluster, verb: l.verb, resource: l.resource, source: l.source });
      this.#directReadCount++;
    }
  }
  rateLimited(l: Omit<RequestLabels, 'code'>, waitedMs: number): void {
    this.#rateLimiter.observe({ cluster: l.cluster, verb: l.verb }, waitedMs / 1000);
  }

  #directReadCount = 0;

  /** Sum of warmstart_direct_reads_total, readable synchronously for the dashboard. */
  get directReadCount(): number {
    return this.#directReadCount;
  }

  setLeader(leading: boolean): void {
    this.#leader.set(leading ? 1 : 0);
  }

  /**
   * Drops every series labelled with this cluster, once its Cluster is gone: a removed member must not be
   * scraped for ever (a Cluster that comes back under the same name starts its series again).
   */
  async forgetCluster(cluster: string): Promise<void> {
    const metrics: readonly {
      get(): Promise<{ values: readonly { labels: LabelValues<string> }[] }>;
      remove(labels: LabelValues<string>): void;
    }[] = [
      this.#requests,
      this.#requestDuration,
      this.#rateLimiter,
      this.#directReads,
      this.#synced,
      this.#objects,
      this.#listDuration,
      this.#relists,
      this.#watchRestarts,
      this.#readerWaits,
      this.#readerWaitSeconds,
    ];
    for (const metric of metrics) {
      const seen = new Set<string>();
      for (const v of (await metric.get()).values) {
        if (v.labels.cluster !== cluster) continue;
        // A histogram reports each bucket (le) and _sum/_count: the series is the labels without `le`.
        const { le: _le, ...labels } = v.labels;
        const id = JSON.stringify(labels);
        if (seen.has(id)) continue;
        seen.add(id);
        metric.remove(labels);
      }
    }
  }

  /** Sum of warmstart_direct_reads_total, for the dashboard and tests. */
  async directReads(): Promise<number> {
    const m = await this.#directReads.get();
    return m.values.reduce((a, v) => a + v.value, 0);
  }
}
