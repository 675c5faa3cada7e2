// Waiting on a condition with a deadline. The harness polls only things it cannot subscribe to (a process's
// HTTP endpoint coming up); the interval is short and the deadline always explicit.
export class ConditionTimeoutError extends Error {
  constructor(what: string, timeoutMs: number, last: unknown) {
    super(
      `timed out after ${timeoutMs} ms waiting for ${what}` +
        (last === undefined ? '' : `; last result: ${last instanceof Error ? last.message : String(last)}`),
    );
    this.name = 'ConditionTimeoutError';
  }
}

export interface WaitForOptions {
  readonly timeoutMs: number;
  readonly intervalMs?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Calls `probe` until it returns a value other than undefined/false, then returns it. Throws
 * ConditionTimeoutError naming `what` after the deadline, with the last error or value seen.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  options: WaitForOptions,
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  const interval = options.intervalMs ?? 100;
  let last: unknown;
  for (;;) {
    options.signal?.throwIfAborted();
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() >= deadline) throw new ConditionTimeoutError(what, options.timeoutMs, last);
    await new Promise((r) => setTimeout(r, Math.min(interval, Math.max(0, deadline - Date.now()))));
  }
}
