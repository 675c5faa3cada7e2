// What every controller of the manager is: a Runnable of the lifecycle's controllers group that owns a work
// queue, a pool of workers and the status the dashboard shows. Event handlers only enqueue keys; initial-list
// events go in at low priority so a change made after a restart overtakes the start-up backlog.
import type { Runnable } from '@warmstart/sync-gate';
import { LOW_PRIORITY, type Reconcile, runWorkers, WorkQueue } from '@warmstart/workqueue';
import type { ControllerStatus } from './dashboard/status.js';
import type { Logger } from './logger.js';
import type { ManagerMetrics } from './metrics.js';

export interface QueueControllerOptions {
  readonly name: string;
  readonly concurrency: number;
  readonly reconcile: Reconcile;
  readonly log: Logger;
  readonly metrics?: ManagerMetrics | undefined;
  /** Extra work to do once when the controller starts (e.g. register handlers), before workers run. */
  readonly onStart?: ((signal: AbortSignal) => Promise<void> | void) | undefined;
}

/** A controller as the manager runs it: a lifecycle Runnable with dashboard rows (one per queue). */
export interface ManagedController extends Runnable {
  statuses(waitingFor: string | undefined): readonly ControllerStatus[];
}

export class QueueController implements ManagedController {
  readonly name: string;
  readonly queue: WorkQueue;
  readonly #o: QueueControllerOptions;
  #workers: Promise<void> | undefined;
  #lastError: ControllerStatus['lastError'];
  #readerWaits = 0;
  #started = false;

  constructor(options: QueueControllerOptions) {
    this.name = options.name;
    this.#o = options;
    this.queue = new WorkQueue({
      name: options.name,
      ...(options.metrics ? { metrics: options.metrics.workqueue } : {}),
    });
  }

  /**
   * Enqueues a key. `low`: items of an informer's initial list and bulk requeues (every Work of a member that
   * reconnected, every binding after a Cluster change) go in at low priority, so a change made meanwhile
   * overtakes them instead of waiting behind tens of thousands of keys.
   */
  enqueue(key: string, low = false): void {
    this.queue.add(key, low ? { priority: LOW_PRIORITY } : undefined);
  }

  /**
   * Enqueues many keys at low priority, in slices with turns of the event loop between (WorkQueue.addAll): a
   * bulk requeue at full scale is 100,000 keys, too long to hold probes and Lease renewals for.
   */
  async enqueueAll(keys: Iterable<string>): Promise<void> {
    await this.queue.addAll(keys, { priority: LOW_PRIORITY });
  }

  /** Counts a read that had to wait for its cache (see countingReader). */
  readerWaited(): void {
    this.#readerWaits++;
  }

  async start(signal: AbortSignal): Promise<void> {
    await this.#o.onStart?.(signal);
    this.#started = true;
    this.#workers = runWorkers({
      queue: this.queue,
      concurrency: this.#o.concurrency,
      signal,
      reconcile: this.#o.reconcile,
      onError: (key, error) => {
        const message = error instanceof Error ? error.message : String(error);
        this.#lastError = { key, message, at: Date.now() };
        this.#o.log.error(
          { controller: this.name, key, err: error, retries: this.queue.numRequeues(key) },
          'reconcile failed',
        );
      },
    });
  }

  async stop(deadline: AbortSignal): Promise<void> {
    this.queue.shutDown();
    if (!this.#workers) return;
    await Promise.race([
      this.#workers,
      new Promise<void>((resolve) => deadline.addEventListener('abort', () => resolve(), { once: true })),
    ]);
  }

  statuses(waitingFor: string | undefined): readonly ControllerStatus[] {
    return [this.status(waitingFor)];
  }

  status(waitingFor: string | undefined): ControllerStatus {
    const snap = this.queue.snapshot();
    return {
      name: this.name,
      queueDepth: snap.depth,
      inFlight: snap.inFlight,
      readerWaits: this.#readerWaits,
      lastError: this.#lastError,
      waitingFor: this.#started ? undefined : waitingFor,
    };
  }
}
