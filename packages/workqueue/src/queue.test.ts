import { afterEach, describe, expect, it, vi } from 'vitest';
import { DrainTimeoutError, WorkQueueAbortedError } from './errors.js';
import type { WorkQueueMetricsProvider } from './metrics.js';
import { LOW_PRIORITY } from './priority.js';
import { WorkQueue } from './queue.js';

/** Takes every queued key in order, calling done on each, without waiting for more. */
async function drainOrder(queue: WorkQueue): Promise<string[]> {
  const keys: string[] = [];
  while (queue.snapshot().depth - queue.snapshot().dirtyInFlight > 0) {
    const key = await queue.get();
    if (key === undefined) break;
    keys.push(key);
    queue.done(key);
  }
  return keys;
}

/** True once `promise` has settled, after letting every pending microtask run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
  return done;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('WorkQueue basics', () => {
  it('dedupes a key added while it is queued', async () => {
    const q = new WorkQueue();
    q.add('a');
    q.add('a');
    q.add('b');
    q.add('a');
    expect(q.depth).toBe(2);
    expect(await drainOrder(q)).toEqual(['a', 'b']);
    expect(q.depth).toBe(0);
  });

  it('re-queues a key added while it is processed, only after done', async () => {
    const q = new WorkQueue();
    q.add('a');
    expect(await q.get()).toBe('a');
    q.add('a');
    q.add('a');
    expect(q.snapshot()).toMatchObject({ depth: 1, dirtyInFlight: 1, inFlight: 1 });
    const next = q.get();
    expect(await settled(next)).toBe(false);
    q.done('a');
    expect(await next).toBe('a');
    expect(q.snapshot()).toMatchObject({ depth: 0, inFlight: 1 });
    q.done('a');
    expect(q.snapshot()).toMatchObject({ depth: 0, inFlight: 0 });
  });

  it('hands a key to one getter only, even with several waiting', async () => {
    const q = new WorkQueue();
    const getters = [q.get(), q.get(), q.get()];
    q.add('a');
    q.add('a');
    expect(await getters[0]).toBe('a');
    expect(await settled(getters[1]!)).toBe(false);
    q.add('b');
    expect(await getters[1]).toBe('b');
    expect(await settled(getters[2]!)).toBe(false);
    q.shutDown();
    expect(await getters[2]).toBeUndefined();
  });

  it('ignores done for a key that is not in flight', () => {
    const q = new WorkQueue();
    q.add('a');
    q.done('a');
    expect(q.snapshot()).toMatchObject({ depth: 1, inFlight: 0 });
  });
});

describe('priority lanes', () => {
  it('hands out higher priorities first and keeps FIFO order within a priority', async () => {
    const q = new WorkQueue();
    q.add('low-1', { priority: LOW_PRIORITY });
    q.add('n-1');
    q.add('high-1', { priority: 10 });
    q.add('low-2', { priority: LOW_PRIORITY });
    q.add('n-2', { priority: 0 });
    q.add('high-2', { priority: 10 });
    q.add('n-3');
    expect(q.snapshot().byPriority).toEqual([
      { priority: 10, depth: 2 },
      { priority: 0, depth: 3 },
      { priority: LOW_PRIORITY, depth: 2 },
    ]);
    expect(await drainOrder(q)).toEqual(['high-1', 'high-2', 'n-1', 'n-2', 'n-3', 'low-1', 'low-2']);
  });

  it('lets changes made after a restart overtake the initial-list backlog', async () => {
    const q = new WorkQueue();
    for (let i = 0; i < 1000; i += 1) q.add(`initial-${i}`, { priority: LOW_PRIORITY });
    expect(await q.get()).toBe('initial-0');
    q.done('initial-0');
    q.add('changed-after-restart');
    expect(await q.get()).toBe('changed-after-restart');
    q.done('changed-after-restart');
    expect(await q.get()).toBe('initial-1');
  });

  it('raises the priority of a queued key and never lowers it', async () => {
    const q = new WorkQueue();
    q.add('a', { priority: LOW_PRIORITY });
    q.add('b', { priority: LOW_PRIORITY });
    q.add('c');
    q.add('b', { priority: 5 });
    q.add('c', { priority: LOW_PRIORITY });
    expect(q.depth).toBe(3);
    expect(q.snapshot().byPriority).toEqual([
      { priority: 5, depth: 1 },
      { priority: 0, depth: 1 },
      { priority: LOW_PRIORITY, depth: 1 },
    ]);
    expect(await drainOrder(q)).toEqual(['b', 'c', 'a']);
  });

  it('raises a key that was re-added while in flight', async () => {
    const q = new WorkQueue();
    q.add('a', { priority: LOW_PRIORITY });
    expect(await q.get()).toBe('a');
    q.add('a', { priority: LOW_PRIORITY });
    q.add('b');
    q.add('a', { priority: 7 });
    q.done('a');
    expect(await drainOrder(q)).toEqual(['a', 'b']);
  });

  it('hands a burst of adds to a blocked getter in priority order', async () => {
    const q = new WorkQueue();
    const next = q.get();
    q.add('low', { priority: LOW_PRIORITY });
    q.add('high', { priority: 1 });
    expect(await next).toBe('high');
  });

  it('rejects a priority that is not a finite number', () => {
    const q = new WorkQueue();
    expect(() => q.add('a', { priority: Number.NaN })).toThrow(RangeError);
    expect(q.depth).toBe(0);
  });
});

describe('addAfter', () => {
  it('adds keys in due order with a single timer', async () => {
    vi.useFakeTimers();
    const q = new WorkQueue();
    q.addAfter('c', 300);
    q.addAfter('a', 100);
    q.addAfter('b', 200);
    for (let i = 0; i < 100; i += 1) q.addAfter(`later-${i}`, 10_000 + i);
    expect(vi.getTimerCount()).toBe(1);
    expect(q.snapshot()).toMatchObject({ delayed: 103, depth: 0 });

    vi.advanceTimersByTime(99);
    expect(q.depth).toBe(0);
    vi.advanceTimersByTime(1);
    expect(q.depth).toBe(1);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(200);
    expect(await drainOrder(q)).toEqual(['a', 'b', 'c']);
    vi.advanceTimersByTime(10_100);
    expect(q.snapshot()).toMatchObject({ delayed: 0, depth: 100 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps the earlier due time and the higher priority for a key added twice', () => {
    vi.useFakeTimers();
    const q = new WorkQueue();
    q.addAfter('a', 500, { priority: LOW_PRIORITY });
    q.addAfter('a', 100);
    q.addAfter('a', 300, { priority: 3 });
    expect(q.snapshot().delayed).toBe(1);
    vi.advanceTimersByTime(100);
    expect(q.snapshot()).toMatchObject({ delayed: 0, byPriority: [{ priority: 3, depth: 1 }] });
    vi.advanceTimersByTime(1000);
    expect(q.depth).toBe(1);
  });

  it('waits out a delay longer than a Node timer can hold', () => {
    vi.useFakeTimers();
    const q = new WorkQueue();
    const thirtyDays = 30 * 24 * 3600 * 1000;
    q.addAfter('a', thirtyDays);
    vi.advanceTimersByTime(thirtyDays - 1);
    expect(q.depth).toBe(0);
    vi.advanceTimersByTime(1);
    expect(q.depth).toBe(1);
  });

  it('rejects a NaN delay', () => {
    const q = new WorkQueue();
    expect(() => q.addAfter('a', Number.NaN)).toThrow(RangeError);
  });

  it('adds at once for a zero delay', () => {
    const q = new WorkQueue();
    q.addAfter('a', 0);
    expect(q.depth).toBe(1);
  });

  it('drops waiting keys and the timer at shutdown', () => {
    vi.useFakeTimers();
    const q = new WorkQueue();
    q.addAfter('a', 100);
    q.shutDown();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(200);
    expect(q.snapshot()).toMatchObject({ depth: 0, delayed: 0 });
  });
});

describe('rate limiting through the queue', () => {
  it('backs off per key, counts requeues and forgets', () => {
    vi.useFakeTimers();
    const q = new WorkQueue();
    q.addRateLimited('a');
    q.addRateLimited('a');
    expect(q.numRequeues('a')).toBe(2);
    // The first retry (5 ms) wins over the second (10 ms): a key waits once.
    vi.advanceTimersByTime(4);
    expect(q.depth).toBe(0);
    vi.advanceTimersByTime(1);
    expect(q.depth).toBe(1);
    q.forget('a');
    expect(q.numRequeues('a')).toBe(0);
  });

  it('retries an in-flight key at the priority it was handed out with', async () => {
    vi.useFakeTimers();
    const q = new WorkQueue();
    q.add('a', { priority: LOW_PRIORITY });
    expect(await q.get()).toBe('a');
    q.addRateLimited('a');
    q.done('a');
    vi.advanceTimersByTime(5);
    expect(q.snapshot().byPriority).toEqual([{ priority: LOW_PRIORITY, depth: 1 }]);
  });
});

describe('get and shutdown', () => {
  it('releases blocked getters at shutdown and ignores later adds', async () => {
    const q = new WorkQueue();
    const a = q.get();
    const b = q.get();
    q.shutDown();
    expect(await a).toBeUndefined();
    expect(await b).toBeUndefined();
    q.add('x');
    expect(q.depth).toBe(0);
    expect(await q.get()).toBeUndefined();
  });

  it('still hands out keys queued before shutdown, then undefined', async () => {
    const q = new WorkQueue();
    q.add('a');
    q.add('b');
    q.shutDown();
    expect(await q.get()).toBe('a');
    expect(await q.get()).toBe('b');
    expect(await q.get()).toBeUndefined();
  });

  it('rejects a blocked get when its signal aborts, and the key goes to the next getter', async () => {
    const q = new WorkQueue({ name: 'deployments' });
    const ac = new AbortController();
    const first = q.get(ac.signal);
    const second = q.get();
    ac.abort(new Error('worker stopping'));
    await expect(first).rejects.toBeInstanceOf(WorkQueueAbortedError);
    await expect(first).rejects.toThrow(/get\(\) on work queue "deployments" was aborted .*worker stopping/);
    q.add('a');
    expect(await second).toBe('a');
    expect(q.snapshot().idleGetters).toBe(0);
  });

  it('rejects at once when the signal is already aborted, without taking a key', async () => {
    const q = new WorkQueue();
    q.add('a');
    await expect(q.get(AbortSignal.abort())).rejects.toBeInstanceOf(WorkQueueAbortedError);
    expect(q.snapshot()).toMatchObject({ depth: 1, inFlight: 0 });
  });

  it('shutDownWithDrain waits for in-flight keys', async () => {
    const q = new WorkQueue();
    q.add('a');
    q.add('b');
    await q.get();
    await q.get();
    const drained = q.shutDownWithDrain({ timeoutMs: 1000 });
    q.done('a');
    expect(await settled(drained)).toBe(false);
    q.done('b');
    await expect(drained).resolves.toBeUndefined();
  });

  it('shutDownWithDrain rejects with DrainTimeoutError at its deadline, naming the stuck keys', async () => {
    vi.useFakeTimers();
    const q = new WorkQueue({ name: 'bindings' });
    q.add('ns/stuck');
    await q.get();
    const drained = q.shutDownWithDrain({ timeoutMs: 2000 });
    const outcome = drained.then(
      () => undefined,
      (e: unknown) => e,
    );
    vi.advanceTimersByTime(1999);
    expect(await settled(drained)).toBe(false);
    vi.advanceTimersByTime(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(DrainTimeoutError);
    expect(error).toMatchObject({ queue: 'bindings', inFlight: 1, keys: ['ns/stuck'] });
    expect((error as Error).message).toMatch(
      /did not drain within 2000 ms: 1 key\(s\) still in flight \(ns\/stuck\)/,
    );
    expect(vi.getTimerCount()).toBe(0);
  });

  it('shutDownWithDrain rejects when its signal aborts', async () => {
    const q = new WorkQueue();
    q.add('a');
    await q.get();
    const ac = new AbortController();
    const drained = q.shutDownWithDrain({ signal: ac.signal });
    ac.abort('manager stopping');
    await expect(drained).rejects.toMatchObject({ operation: 'drain' });
  });

  it('shutDownWithDrain resolves at once with nothing in flight', async () => {
    const q = new WorkQueue();
    await expect(q.shutDownWithDrain()).resolves.toBeUndefined();
    expect(q.shuttingDown).toBe(true);
  });
});

describe('metrics and snapshot', () => {
  function recordingProvider() {
    const events: string[] = [];
    const observations: Record<string, number[]> = { latency: [], work: [], unfinished: [], longest: [] };
    const provider: WorkQueueMetricsProvider = {
      newDepthMetric: (name, priority) => ({
        inc: () => events.push(`depth+ ${name} ${priority}`),
        dec: () => events.push(`depth- ${name} ${priority}`),
      }),
      newAddsMetric: (name) => ({ inc: () => events.push(`add ${name}`) }),
      newLatencyMetric: () => ({ observe: (v) => observations.latency!.push(v) }),
      newWorkDurationMetric: () => ({ observe: (v) => observations.work!.push(v) }),
      newUnfinishedWorkSecondsMetric: () => ({ set: (v) => observations.unfinished!.push(v) }),
      newLongestRunningProcessorSecondsMetric: () => ({ set: (v) => observations.longest!.push(v) }),
      newRetriesMetric: (name) => ({ inc: () => events.push(`retry ${name}`) }),
    };
    return { provider, events, observations };
  }

  it('reports client-go workqueue metrics through the provider', async () => {
    vi.useFakeTimers();
    const { provider, events, observations } = recordingProvider();
    const q = new WorkQueue({ name: 'detector', metrics: provider });
    q.add('a', { priority: LOW_PRIORITY });
    q.add('a', { priority: LOW_PRIORITY });
    q.add('a', { priority: 2 });
    vi.advanceTimersByTime(250);
    expect(await q.get()).toBe('a');
    // The in-flight gauges are set every 500 ms from the queue's creation: at 500 and 1000.
    vi.advanceTimersByTime(750);
    expect(observations.unfinished).toEqual([0.25, 0.75]);
    expect(observations.longest).toEqual([0.25, 0.75]);
    q.done('a');
    q.addAfter('b', 10);
    expect(events).toEqual([
      'add detector',
      `depth+ detector ${LOW_PRIORITY}`,
      `depth- detector ${LOW_PRIORITY}`,
      'depth+ detector 2',
      'depth- detector 2',
      'retry detector',
    ]);
    expect(observations.latency).toEqual([0.25]);
    expect(observations.work).toEqual([0.75]);
    q.shutDown();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('snapshots depth, in-flight keys and their ages', async () => {
    vi.useFakeTimers();
    const q = new WorkQueue({ name: 'works' });
    q.add('a');
    q.add('b');
    q.add('c', { priority: LOW_PRIORITY });
    await q.get();
    vi.advanceTimersByTime(1000);
    await q.get();
    vi.advanceTimersByTime(500);
    q.add('a');
    q.addAfter('d', 100);
    expect(q.snapshot()).toEqual({
      name: 'works',
      depth: 2,
      inFlight: 2,
      dirtyInFlight: 1,
      delayed: 1,
      idleGetters: 0,
      byPriority: [
        { priority: 0, depth: 1 },
        { priority: LOW_PRIORITY, depth: 1 },
      ],
      unfinishedWorkSeconds: 2,
      longestRunningProcessorSeconds: 1.5,
      shuttingDown: false,
    });
  });
});
