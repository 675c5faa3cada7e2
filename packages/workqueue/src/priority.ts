// Priority lanes. Higher numbers are handed out first; within one priority, first in, first out.

/**
 * The priority for events from an informer's initial list (and resyncs that changed nothing), as
 * controller-runtime's priority queue uses it: a change made after a restart overtakes the start-up backlog.
 */
export const LOW_PRIORITY = -100;

/** The priority of an add that names none. */
export const DEFAULT_PRIORITY = 0;

export function checkPriority(priority: number): number {
  if (!Number.isFinite(priority)) {
    throw new RangeError(
      `work queue priority must be a finite number (got ${priority}); use LOW_PRIORITY for initial-list items and 0 for changes`,
    );
  }
  return priority;
}
