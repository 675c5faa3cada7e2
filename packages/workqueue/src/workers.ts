// A pool of workers over a WorkQueue, with controller-runtime's reconcile-result handling: an error retries the
// key rate-limited, requeueAfter schedules it again, success forgets its failure history.
import { yieldIfBusy } from './event-loop-turn.js';
import type { WorkQueue } from './queue.js';

/** What a reconcile asks of the queue after it succeeded. */
export interface Result {
  /** Process the key again after this many milliseconds (its failure history is forgotten first). */
  readonly requeueAfter?: number;
}

/**
 * Reconciles one key. Resolving (with a Result or nothing) means success; throwing or rejecting means "retry
 * later, rate-limited".
 */
export type Reconcile = (key: string, signal: AbortSignal) => Promise<Result> | Promise<void>;

export interface RunWorkersOptions {
  readonly queue: WorkQueue;
  /** How many keys are reconciled at once (controller-runtime's MaxConcurrentReconciles). */
  readonly concurrency: number;
  /** Stops the workers: each finishes the key it holds, then returns. Also passed to every reconcile. */
  readonly signal: AbortSignal;
  readonly reconcile: Reconcile;
  /**
   * Hears about every failed reconcile after its retry has been scheduled; `queue.numRequeues(key)` tells how
   * many times it has failed in a row. Errors thrown here are ignored so a faulty logger cannot stop a worker.
   */
  readonly onError: (key: string, error: unknown) => void;
}

/**
 * Runs `concurrency` workers until `signal` aborts or the queue shuts down and runs dry. Resolves when every
 * worker has returned. The queue guarantees that no key is reconciled by two workers at once.
 */
export async function runWorkers(options: RunWorkersOptions): Promise<void> {
  const { concurrency } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`runWorkers needs a whole concurrency of at least 1 (got ${concurrency})`);
  }
  const workers: Promise<void>[] = [];
  for (let i = 0; i < concurrency; i += 1) workers.push(work(options));
  await Promise.all(workers);
}

async function work(options: RunWorkersOptions): Promise<void> {
  const { queue, signal } = options;
  while (!signal.aborted) {
    let key: string | undefined;
    try {
      key = await queue.get(signal);
    } catch (error) {
      if (signal.aborted) return;
      throw error;
    }
    if (key === undefined) return;
    await processOne(options, key);
    await yieldIfBusy();
  }
}

async function processOne(options: RunWorkersOptions, key: string): Promise<void> {
  const { queue, signal, reconcile, onError } = options;
  // Retries keep the priority the key had, so a failing start-up item stays behind newer changes.
  const priority = queue.inFlightPriority(key);
  const opts = priority === undefined ? undefined : { priority };
  try {
    const result = await reconcile(key, signal);
    queue.forget(key);
    const after = result?.requeueAfter;
    if (after !== undefined && after > 0) queue.addAfter(key, after, opts);
  } catch (error) {
    queue.addRateLimited(key, opts);
    try {
      onError(key, error);
    } catch {
      // A throwing error handler must not stop the worker; the retry is already scheduled.
    }
  } finally {
    queue.done(key);
  }
}
