import { describe, expect, it } from 'vitest';
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
});
