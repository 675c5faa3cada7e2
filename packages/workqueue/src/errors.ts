// Typed errors of the work queue. Each names the queue, so a log line alone says which controller is affected.

/** Base class of the errors a work queue rejects with. */
export class WorkQueueError extends Error {
  constructor(
    message: string,
    /** The queue's name. */
    readonly queue: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The caller's AbortSignal fired while it waited in get() or shutDownWithDrain(). `cause` is the signal's reason. */
export class WorkQueueAbortedError extends WorkQueueError {
  constructor(
    queue: string,
    /** What was being waited for. */
    readonly operation: 'get' | 'drain',
    /** Milliseconds between the start of the wait and the abort. */
    readonly waitedMs: number,
    reason: unknown,
  ) {
    super(
      `${operation === 'get' ? 'get() on' : 'draining'} work queue "${queue}" was aborted after ${Math.round(waitedMs)} ms: ${describe(reason)}`,
      queue,
      { cause: reason },
    );
  }
}

/** shutDownWithDrain's deadline passed while keys were still being processed. The queue stays shut down. */
export class DrainTimeoutError extends WorkQueueError {
  constructor(
    queue: string,
    /** Milliseconds waited. */
    readonly waitedMs: number,
    /** How many keys were still in flight. */
    readonly inFlight: number,
    /** Up to ten of them, longest running first. */
    readonly keys: readonly string[],
  ) {
    super(
      `work queue "${queue}" did not drain within ${Math.round(waitedMs)} ms: ${inFlight} key(s) still in flight ` +
        `(${keys.join(', ')}${inFlight > keys.length ? ', ...' : ''}). A reconcile is stuck or slow: ` +
        'make it honour its AbortSignal, or give the drain a longer deadline.',
      queue,
    );
  }
}

export function describe(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  if (typeof cause === 'string') return cause;
  try {
    return JSON.stringify(cause) ?? String(cause);
  } catch {
    return String(cause);
  }
}
