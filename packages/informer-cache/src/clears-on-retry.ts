// The failures a controller built on the cache retries silently: a Warning Event is a write to the API server and
// a message to the user, and neither is due for the cache's own passing state, which the retry clears alone.
import { CacheSyncTimeoutError } from './errors.js';

/**
 * True for a failure the next retry of the same reconcile clears without anyone acting:
 * - a 409 (Conflict or AlreadyExists), the cache behind a write, ours or another's: the retry reads the newer object;
 * - a read that gave up waiting for a cache still syncing (`CacheSyncTimeoutError`): /readyz names that cache,
 *   and the object an Event would land on is not at fault.
 * Callers add their own cases (a stopping manager, a policy whose status already says what is wrong).
 */
export function clearsOnRetry(error: unknown): boolean {
  if (error instanceof CacheSyncTimeoutError) return true;
  return (error as { code?: unknown } | null)?.code === 409;
}
