import { describe, expect, it, vi } from 'vitest';
import { EVENT_LOOP_SLICE_MS, nextTurn, sliceUsed } from './event-loop-turn.js';
import { LOW_PRIORITY } from './priority.js';
import { WorkQueue } from './queue.js';
import { turnMeter } from './testing/turn-meter.js';
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

// CPU-bound by design: on a busy machine these take many times their idle time; they count work per turn.
describe('one slice per turn for the whole process', { timeout: 60_000 }, () => {
  it('holds a turn to about one slice when workers of twenty queues all have a backlog', async () => {
    const parties = 20;
    const keysEach = 100;
    const each = 0.25;
    const meter = turnMeter();
    const controller = new AbortController();
    let left = parties * keysEach;
    const pools: Promise<void>[] = [];
    for (let p = 0; p < parties; p++) {
      const queue = new WorkQueue({ name: `party-${p}` });
      for (let i = 0; i < keysEach; i++) queue.add(`k${i}`);
      pools.push(
        runWorkers({
          queue,
          concurrency: 1,
          signal: controller.signal,
          onError: () => undefined,
          reconcile: async () => {
            busy(each);
            meter.record(each);
            if (--left === 0) controller.abort();
          },
        }),
      );
    }
    await Promise.all(pools);
    meter.stop();
    expect(left).toBe(0);
    // Every party woken into a turn may finish one reconcile before it looks at the clock again, so a turn can
    // run to the slice plus one reconcile per party (5 + 20 × 0.25 ms). A slice per party held each turn for
    // 20 × 5 = 100 ms.
    const longest = Math.max(...meter.perTurn);
    expect(longest).toBeLessThanOrEqual(EVENT_LOOP_SLICE_MS + parties * each + 2 * each);
  });

  it('lets workers of a small pool progress beside a large one', async () => {
    const meter = turnMeter();
    const controller = new AbortController();
    const big = new WorkQueue({ name: 'big' });
    const small = new WorkQueue({ name: 'small' });
    for (let i = 0; i < 400; i++) big.add(`b${i}`);
    for (let i = 0; i < 400; i++) small.add(`s${i}`);
    let bigDone = 0;
    let smallDone = 0;
    let smallWhenBigHalfway: number | undefined;
    const pool = (queue: WorkQueue, concurrency: number, onDone: () => void): Promise<void> =>
      runWorkers({
        queue,
        concurrency,
        signal: controller.signal,
        onError: () => undefined,
        reconcile: async () => {
          busy(0.25);
          meter.record(0.25);
          onDone();
        },
      });
    await Promise.all([
      pool(big, 8, () => {
        if (++bigDone === 200) smallWhenBigHalfway = smallDone;
        if (bigDone === 400) controller.abort();
      }),
      pool(small, 1, () => {
        smallDone++;
      }),
    ]);
    meter.stop();
    // Half the big backlog is 50 ms of work, ten turns or more: the single small worker works in each of them.
    expect(smallWhenBigHalfway).toBeDefined();
    expect(smallWhenBigHalfway!).toBeGreaterThanOrEqual(10);
    expect(smallDone).toBeGreaterThan(0);
  });

  it('does not let a party that works the whole slice as it wakes starve one that yields', async () => {
    const keys = 100;
    const controller = new AbortController();
    // Woken first, it takes the slice with synchronous work, so the worker behind it wakes into a used slice.
    let greedyTurns = 0;
    const greedy = (): void => {
      if (controller.signal.aborted) return;
      // Past the turns the worker needs at worst: a starved worker then fails the test rather than time out.
      if (++greedyTurns === 3 * keys) controller.abort();
      while (!sliceUsed()) busy(0.25);
      void nextTurn().then(greedy);
    };
    void nextTurn().then(greedy);
    const queue = new WorkQueue({ name: 'behind-a-greedy-party' });
    for (let i = 0; i < keys; i++) queue.add(`k${i}`);
    let reconciled = 0;
    let greedyTurnsAtEnd = 0;
    await runWorkers({
      queue,
      concurrency: 1,
      signal: controller.signal,
      onError: () => undefined,
      reconcile: async () => {
        busy(0.25);
        if (++reconciled === keys) {
          greedyTurnsAtEnd = greedyTurns;
          controller.abort();
        }
      },
    });
    expect(reconciled).toBe(keys);
    // Turned away once, the worker goes first next turn and reconciles before the greedy party's loop takes
    // the rest of that slice: a key every second turn at worst.
    expect(greedyTurnsAtEnd).toBeLessThanOrEqual(2 * keys + 2);
  }, 20_000);

  it('is one budget for every copy of the module loaded in the process', async () => {
    // A query makes the module loader treat it as another module, as a second installed version would be.
    vi.resetModules();
    const second = './event-loop-turn.js?second-copy';
    const copy: typeof import('./event-loop-turn.js') = await import(second);
    expect(copy.sliceUsed).not.toBe(sliceUsed);
    // Whoever claims first starts the one slice; a copy that sees it used up waits for the same turn's end.
    await nextTurn();
    expect(sliceUsed()).toBe(false);
    busy(EVENT_LOOP_SLICE_MS + 1);
    expect(copy.sliceUsed()).toBe(true);
    let otherWoke = false;
    const other = copy.nextTurn().then(() => {
      otherWoke = true;
    });
    await nextTurn();
    expect(otherWoke).toBe(true);
    await other;
    expect(copy.sliceUsed()).toBe(false);
    expect(sliceUsed()).toBe(false);
  });
});
