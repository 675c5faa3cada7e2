import { describe, expect, it } from 'vitest';
import { LOW_PRIORITY } from './priority.js';
import { WorkQueue } from './queue.js';
import { runWorkers } from './workers.js';

/** CPU work of `ms` milliseconds, as a reconcile that reads only from caches does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
}

describe('workers and the event loop', () => {
  it('let timers run while they work through a backlog that never waits for I/O', async () => {
    const queue = new WorkQueue({ name: 'turns' });
    const keys = 200;
    for (let i = 0; i < keys; i++) queue.add(`k${i}`);
    let processed = 0;
    let processedWhenTimerRan: number | undefined;
    setTimeout(() => {
      processedWhenTimerRan = processed;
    }, 0);
    const controller = new AbortController();
    const done = runWorkers({
      queue,
      concurrency: 4,
      signal: controller.signal,
      onError: () => undefined,
      reconcile: async () => {
        busy(1);
        processed++;
        if (processed === keys) controller.abort();
      },
    });
    await done;
    expect(processed).toBe(keys);
    // Without a turn for the event loop the timer would run only after all 200 ms of work.
    expect(processedWhenTimerRan).toBeDefined();
    expect(processedWhenTimerRan!).toBeLessThan(keys / 2);
  });

  it('addAll lets the event loop turn during a bulk requeue and queues every key once, in order', async () => {
    const queue = new WorkQueue({ name: 'bulk' });
    queue.add('k7');
    const total = 100_000;
    const keys = Array.from({ length: total }, (_, i) => `k${i}`);
    let depthWhenLoopRan: number | undefined;
    setImmediate(() => {
      depthWhenLoopRan = queue.depth;
    });
    const added = await queue.addAll(keys, { priority: LOW_PRIORITY });
    expect(added).toBe(total);
    expect(queue.depth).toBe(total);
    // Without slices the loop would turn only after all 100,000 adds.
    expect(depthWhenLoopRan).toBeDefined();
    expect(depthWhenLoopRan!).toBeLessThan(total);
    // k7 was queued first and at the default priority, so it stays ahead; the rest keep their order.
    const first = [await queue.get(), await queue.get(), await queue.get()];
    expect(first).toEqual(['k7', 'k0', 'k1']);
  });

  it('addAll stops at shutdown and when its signal aborts', async () => {
    const keys = function* (): Generator<string> {
      for (let i = 0; ; i++) yield `k${i}`;
    };
    const aborted = new AbortController();
    const queue = new WorkQueue({ name: 'bulk' });
    setImmediate(() => aborted.abort());
    const added = await queue.addAll(keys(), { signal: aborted.signal });
    expect(added).toBeGreaterThan(0);
    expect(queue.depth).toBe(added);

    const other = new WorkQueue({ name: 'bulk' });
    setImmediate(() => other.shutDown());
    expect(await other.addAll(keys())).toBeGreaterThan(0);
    await expect(other.addAll(['x'], { priority: Number.NaN })).rejects.toThrow(RangeError);
  });
});
