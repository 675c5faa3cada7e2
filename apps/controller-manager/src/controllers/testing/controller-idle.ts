import { until } from '@warmstart/informer-cache/testing';

/** What a controller reports about its queue; the runtime's Controller and our wrappers all expose it. */
interface QueueStatus {
  status(): { inFlight: number; queueDepth: number; delayed: number };
}

/** Waits until `controller` has nothing queued, delayed or in flight; `what` names it in the timeout message. */
export function idle(controller: QueueStatus, what: string): Promise<void> {
  return until(
    () => {
      const s = controller.status();
      return s.inFlight === 0 && s.queueDepth === 0 && s.delayed === 0;
    },
    5_000,
    `${what} idle`,
  );
}
