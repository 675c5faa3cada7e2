// Test helper: records values and lets a test await the first one matching a predicate, with a deadline, instead
// of sleeping.

export class Recorder<T> {
  readonly values: T[] = [];
  readonly #waiters = new Set<{ predicate: (v: T) => boolean; resolve: (v: T) => void }>();

  push = (value: T): void => {
    this.values.push(value);
    for (const w of [...this.#waiters]) {
      if (w.predicate(value)) {
        this.#waiters.delete(w);
        w.resolve(value);
      }
    }
  };

  /** The first recorded value (past or future) matching the predicate. */
  waitFor(predicate: (v: T) => boolean, timeoutMs = 5_000, what = 'value'): Promise<T> {
    const seen = this.values.find(predicate);
    if (seen !== undefined) return Promise.resolve(seen);
    return this.next(predicate, timeoutMs, what);
  }

  /** The next value recorded from now on matching the predicate. */
  next(predicate: (v: T) => boolean, timeoutMs = 5_000, what = 'value'): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiter = {
        predicate,
        resolve: (v: T) => {
          clearTimeout(timer);
          resolve(v);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(new Error(`no matching ${what} within ${timeoutMs} ms (recorded ${this.values.length})`));
      }, timeoutMs);
      this.#waiters.add(waiter);
    });
  }

  count(predicate: (v: T) => boolean): number {
    return this.values.filter(predicate).length;
  }
}

/** Resolves when `condition` holds, checking after each turn of the event loop; rejects after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
