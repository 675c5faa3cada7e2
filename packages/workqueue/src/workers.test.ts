import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOW_PRIORITY } from './priority.js';
import { WorkQueue } from './queue.js';
import { exponentialFailureRateLimiter } from './rate-limiter.js';
import { runWorkers } from './workers.js';

/** A promise resolved from outside. */
function deferred<T = void>() {
  return Promise.withResolvers<T>();
}

afterEach(() => {
  vi.useRealTimers();
});

describe('runWorkers', () => {
  it('never reconciles one key in two workers at once', async () => {
    const queue = new WorkQueue();
    const ac = new AbortController();
    const active = new Set<string>();
    let overlaps = 0;
    let maxParallel = 0;
    let reconciles = 0;
    const keys = ['a', 'b', 'c'];
    for (const k of keys) queue.add(k);
    const running = runWorkers({
      queue,
      concurrency: 4,
      signal: ac.signal,
      onError: () => {},
      reconcile: async (key) => {
        if (active.has(key)) overlaps += 1;
        active.add(key);
        maxParallel = Math.max(maxParallel, active.size);
        reconciles += 1;
        // Re-add every key while it is being processed, so each one is dirty in flight over and over.
        for (const k of keys) queue.add(k);
        for (let i = 0; i < 3; i += 1) await Promise.resolve();
        active.delete(key);
        if (reconciles >= 60) ac.abort();
        return {};
      },
    });
    await running;
    expect(overlaps).toBe(0);
    expect(maxParallel).toBe(3);
    expect(reconciles).toBeGreaterThanOrEqual(60);
  });

  it('retries a failing key rate-limited, reports the error with the key, and forgets on success', async () => {
    vi.useFakeTimers();
    const queue = new WorkQueue({ rateLimiter: exponentialFailureRateLimiter() });
    const ac = new AbortController();
    const errors: [string, unknown][] = [];
    const attempts: number[] = [];
    const requeuesSeen: number[] = [];
    const succeeded = deferred();
    const boom = new Error('conflict');
    queue.add('ns/app', { priority: LOW_PRIORITY });
    const running = runWorkers({
      queue,
      concurrency: 2,
      signal: ac.signal,
      onError: (key, error) => errors.push([key, error]),
      reconcile: async (key) => {
        attempts.push(Date.now());
        requeuesSeen.push(queue.numRequeues(key));
        if (attempts.length <= 2) throw boom;
        succeeded.resolve();
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(errors).toEqual([['ns/app', boom]]);
    expect(queue.snapshot()).toMatchObject({ delayed: 1, inFlight: 0 });
    await vi.advanceTimersByTimeAsync(5);
    expect(errors).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(10);
    await succeeded.promise;
    // Retries came 5 ms and then 10 ms after the failures, and kept the start-up priority.
    expect(attempts.map((t) => t - attempts[0]!)).toEqual([0, 5, 15]);
    expect(requeuesSeen).toEqual([0, 1, 2]);
    await vi.advanceTimersByTimeAsync(0);
    expect(queue.numRequeues('ns/app')).toBe(0);
    ac.abort();
    await running;
  });

  it('keeps the retry priority of a failed key', async () => {
    const queue = new WorkQueue({ rateLimiter: { when: () => 0, forget: () => {}, numRequeues: () => 0 } });
    const ac = new AbortController();
    const seen: string[] = [];
    let lanes: unknown;
    queue.add('initial', { priority: LOW_PRIORITY });
    await runWorkers({
      queue,
      concurrency: 1,
      signal: ac.signal,
      onError: () => {
        queue.add('change');
        lanes = queue.snapshot().byPriority;
      },
      reconcile: async (key) => {
        seen.push(key);
        if (seen.length === 1) throw new Error('first attempt fails');
        if (seen.length === 3) ac.abort();
      },
    });
    expect(lanes).toEqual([
      { priority: 0, depth: 1 },
      { priority: LOW_PRIORITY, depth: 1 },
    ]);
    expect(seen).toEqual(['initial', 'change', 'initial']);
  });

  it('requeues after the delay a Result asks for', async () => {
    vi.useFakeTimers();
    const queue = new WorkQueue();
    const ac = new AbortController();
    const seen: number[] = [];
    const running = runWorkers({
      queue,
      concurrency: 1,
      signal: ac.signal,
      onError: () => {},
      reconcile: async () => {
        seen.push(Date.now());
        if (seen.length === 2) ac.abort();
        return { requeueAfter: 30_000 };
      },
    });
    queue.add('lease');
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toHaveLength(1);
    expect(queue.snapshot().delayed).toBe(1);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await running;
    expect(seen[1]! - seen[0]!).toBe(30_000);
  });

  it('stops on abort after finishing the key in hand', async () => {
    const queue = new WorkQueue();
    const ac = new AbortController();
    const started = deferred();
    const release = deferred();
    const finished: string[] = [];
    const abortedWhenFinished: boolean[] = [];
    queue.add('a');
    queue.add('b');
    const running = runWorkers({
      queue,
      concurrency: 1,
      signal: ac.signal,
      onError: () => {},
      reconcile: async (key, signal) => {
        started.resolve();
        await release.promise;
        abortedWhenFinished.push(signal.aborted);
        finished.push(key);
      },
    });
    await started.promise;
    ac.abort();
    release.resolve();
    await running;
    expect(finished).toEqual(['a']);
    expect(abortedWhenFinished).toEqual([true]);
    expect(queue.snapshot()).toMatchObject({ depth: 1, inFlight: 0 });
  });

  it('returns when the queue shuts down and runs dry', async () => {
    const queue = new WorkQueue();
    const seen: string[] = [];
    const running = runWorkers({
      queue,
      concurrency: 3,
      signal: new AbortController().signal,
      onError: () => {},
      reconcile: async (key) => {
        seen.push(key);
      },
    });
    queue.add('a');
    queue.add('b');
    queue.shutDown();
    await running;
    expect(seen.sort()).toEqual(['a', 'b']);
  });

  it('survives an onError that throws', async () => {
    const queue = new WorkQueue({ rateLimiter: { when: () => 0, forget: () => {}, numRequeues: () => 0 } });
    const ac = new AbortController();
    let attempts = 0;
    queue.add('a');
    await runWorkers({
      queue,
      concurrency: 1,
      signal: ac.signal,
      onError: () => {
        throw new Error('logger broke');
      },
      reconcile: async () => {
        attempts += 1;
        if (attempts === 2) ac.abort();
        else throw new Error('fails');
      },
    });
    expect(attempts).toBe(2);
  });

  it('rejects a concurrency below one', async () => {
    await expect(
      runWorkers({
        queue: new WorkQueue(),
        concurrency: 0,
        signal: new AbortController().signal,
        onError: () => {},
        reconcile: async () => {},
      }),
    ).rejects.toThrow(RangeError);
  });
});
