// Which failures of an apply are the policy's to report (an ApplyPolicyFailed Event on the template) and which are
// the detector's own passing state, retried silently: an Event is a write to the API server and a message to the
// user, and neither is due when the retry will succeed without anyone doing anything.
import { CacheSyncTimeoutError } from '@warmstart/informer-cache';
import { MissingPermanentIdError } from './errors.js';

/**
 * True when a failed apply should be reported as ApplyPolicyFailed. Not reported:
 * - a 409, the cache behind our own last write (the retry sees the write and succeeds);
 * - a read that waited past its deadline for a cache still listing (at 100k workloads on a loaded API server the
 *   binding list can take longer than the read deadline; the retry reads the synced cache);
 * - a policy without its permanent-id label, which the policy's own status reports.
 * The error is still returned to the queue, so it is logged, counted and retried either way.
 */
export function reportsApplyFailure(error: unknown): boolean {
  if (error instanceof MissingPermanentIdError || error instanceof CacheSyncTimeoutError) return false;
  return (error as { code?: unknown } | null)?.code !== 409;
}
