// Which failed reconciles a controller reports as a Warning Event and which it retries silently. An Event is a
// write to the API server and a message to the user; neither is due for the manager's own passing state, which
// the retry clears without anyone doing anything.
import { CacheSyncTimeoutError } from '@warmstart/informer-cache';

/**
 * True when `error` should become a Warning Event. Not reported:
 * - anything after the reconcile's signal aborted (the manager is stopping or lost its lease);
 * - a 409, the cache behind a write (ours or another's): the retry reads the newer object;
 * - a read that gave up waiting for a cache still syncing (CacheSyncTimeoutError): /readyz names that cache, and
 *   the object the Event would land on is not at fault.
 * The error still goes back to the queue, so it is logged, counted and retried either way.
 */
export function isReportedFailure(error: unknown, signal: AbortSignal): boolean {
  if (signal.aborted || error instanceof CacheSyncTimeoutError) return false;
  return (error as { code?: unknown } | null)?.code !== 409;
}
