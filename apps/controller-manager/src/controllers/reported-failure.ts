// Which failed reconciles a controller reports as a Warning Event and which it retries silently.
import { clearsOnRetry } from '@warmstart/informer-cache';

/**
 * True when `error` should become a Warning Event: not a failure the retry clears on its own (`clearsOnRetry`: a
 * 409, a cache still syncing), and not anything after the reconcile's signal aborted (the manager is stopping or
 * lost its lease). The error still goes back to the queue, so it is logged, counted and retried either way.
 */
export function isReportedFailure(error: unknown, signal: AbortSignal): boolean {
  return !signal.aborted && !clearsOnRetry(error);
}
