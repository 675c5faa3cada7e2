// Per-controller metrics hooks under controller-runtime's names, in the shape of workqueue's provider: an
// adapter to Prometheus (or anything else) is a few lines and this package depends on no metrics library.
import type {
  CounterMetric,
  GaugeMetric,
  HistogramMetric,
  SettableGaugeMetric,
  WorkQueueMetricsProvider,
} from '@warmstart/workqueue';

/** controller_runtime_reconcile_total's `result` label, as controller-runtime sets it. */
export type ReconcileResultLabel = 'success' | 'error' | 'requeue' | 'requeue_after';

/** The metric names controller-runtime registers (pkg/internal/controller/metrics). */
export const CONTROLLER_METRIC_NAMES = {
  reconcileTotal: 'controller_runtime_reconcile_total',
  reconcileErrors: 'controller_runtime_reconcile_errors_total',
  reconcileTime: 'controller_runtime_reconcile_time_seconds',
  activeWorkers: 'controller_runtime_active_workers',
  maxConcurrentReconciles: 'controller_runtime_max_concurrent_reconciles',
} as const;

/** Creates one controller's metrics; `controller` is the controller's name (the `controller` label). */
export interface ControllerMetricsProvider {
  /** controller_runtime_reconcile_total{controller,result}. */
  newReconcileTotalMetric(controller: string, result: ReconcileResultLabel): CounterMetric;
  /** controller_runtime_reconcile_errors_total{controller}. */
  newReconcileErrorsMetric(controller: string): CounterMetric;
  /** controller_runtime_reconcile_time_seconds{controller}: how long each reconcile took. */
  newReconcileTimeMetric(controller: string): HistogramMetric;
  /** controller_runtime_active_workers{controller}: workers reconciling now. */
  newActiveWorkersMetric(controller: string): GaugeMetric;
  /** controller_runtime_max_concurrent_reconciles{controller}: the controller's concurrency. */
  newMaxConcurrentReconcilesMetric(controller: string): SettableGaugeMetric;
}

/** Everything a Manager reports metrics through; each part is optional. */
export interface RuntimeMetrics {
  readonly controllers?: ControllerMetricsProvider | undefined;
  readonly workqueue?: WorkQueueMetricsProvider | undefined;
  /** Called with true when this process starts leading, false when it stops. */
  setLeader?(leading: boolean): void;
}

const noop = { inc: () => {}, dec: () => {}, set: () => {}, observe: () => {} };

/** One controller's side of the hooks: created once, then called per reconcile. */
export class ControllerMetrics {
  readonly #total: Record<ReconcileResultLabel, CounterMetric>;
  readonly #errors: CounterMetric;
  readonly #time: HistogramMetric;
  readonly #active: GaugeMetric;

  constructor(controller: string, concurrency: number, provider: ControllerMetricsProvider | undefined) {
    const p = provider;
    this.#total = {
      success: p?.newReconcileTotalMetric(controller, 'success') ?? noop,
      error: p?.newReconcileTotalMetric(controller, 'error') ?? noop,
      requeue: p?.newReconcileTotalMetric(controller, 'requeue') ?? noop,
      requeue_after: p?.newReconcileTotalMetric(controller, 'requeue_after') ?? noop,
    };
    this.#errors = p?.newReconcileErrorsMetric(controller) ?? noop;
    this.#time = p?.newReconcileTimeMetric(controller) ?? noop;
    this.#active = p?.newActiveWorkersMetric(controller) ?? noop;
    p?.newMaxConcurrentReconcilesMetric(controller).set(concurrency);
  }

  started(): void {
    this.#active.inc();
  }

  finished(result: ReconcileResultLabel, seconds: number): void {
    this.#active.dec();
    this.#total[result].inc();
    if (result === 'error') this.#errors.inc();
    this.#time.observe(seconds);
  }
}
