// Which failures of an apply are the policy's to report (an ApplyPolicyFailed Event on the template) and which the
// detector retries silently.
import { clearsOnRetry } from '@warmstart/informer-cache';
import { MissingPermanentIdError } from './errors.js';

/**
 * True when a failed apply should be reported as ApplyPolicyFailed: not a failure the retry clears on its own
 * (`clearsOnRetry`: a 409 from a cache behind our own write, a binding list still arriving past the read
 * deadline), and not a policy without its permanent-id label, which the policy's own status reports. The error
 * is still returned to the queue, so it is logged, counted and retried either way.
 */
export function reportsApplyFailure(error: unknown): boolean {
  return !(error instanceof MissingPermanentIdError) && !clearsOnRetry(error);
}
