import { describe, expect, it } from 'vitest';
import { Backoff } from './backoff.js';
import type { Clock } from './clock.js';
import { TokenBucket } from './token-bucket.js';

/** A clock whose time moves only when a sleeper asks it to: sleeping advances it by the requested amount. */
function fakeClock(): Clock & { time: number; slept: number[] } {
  const clock = {
    time: 0,
    slept: [] as number[],
    now: () => clock.time,
    sleep: async (ms: number, signal?: AbortSignal) => {
      signal?.throwIfAborted();
      clock.slept.push(ms);
      clock.time += ms;
    },
  };
  return clock;
}

describe('TokenBucket', () => {
  it('lets a burst through, then paces callers at qps', async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ qps: 10, burst: 3 }, clock);
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) waits.push(await bucket.acquire());
    expect(waits.slice(0, 3)).toEqual([0, 0, 0]);
    expect(waits[3]).toBeCloseTo(100);
    expect(waits[4]).toBeCloseTo(100);
    expect(clock.time).toBeCloseTo(200);
  });

  it('queues concurrent callers in order for future tokens', async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ qps: 2, burst: 1 }, { ...clock, sleep: async () => {} });
    const waits = await Promise.all([bucket.acquire(), bucket.acquire(), bucket.acquire()]);
    expect(waits).toEqual([0, 500, 1000]);
  });

  it('refills up to burst after a quiet spell', async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ qps: 1, burst: 2 }, clock);
    expect(bucket.tryAcquire()).toBe(true);
    expect(bucket.tryAcquire()).toBe(true);
    expect(bucket.tryAcquire()).toBe(false);
    clock.time += 60_000;
    expect(bucket.tokens).toBe(2);
  });

  it('gives the token back when the wait is aborted', async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ qps: 1, burst: 1 }, clock);
    await bucket.acquire();
    const abort = new AbortController();
    abort.abort();
    await expect(bucket.acquire(abort.signal)).rejects.toThrow();
    expect(bucket.tokens).toBe(0);
  });

  it('is unlimited with qps <= 0', async () => {
    const bucket = new TokenBucket({ qps: 0, burst: 0 });
    expect(bucket.unlimited).toBe(true);
    for (let i = 0; i < 1000; i++) expect(await bucket.acquire()).toBe(0);
  });
});

describe('Backoff', () => {
  it('follows client-go: 800 ms doubling, jitter [d, 2d), capped at 30 s', () => {
    const clock = fakeClock();
    const low = new Backoff({}, clock, () => 0);
    const steps = Array.from({ length: 8 }, () => low.next());
    expect(steps).toEqual([800, 1600, 3200, 6400, 12800, 25600, 30000, 30000]);
    const high = new Backoff({}, clock, () => 0.999);
    const first = high.next();
    expect(first).toBeGreaterThan(1590);
    expect(first).toBeLessThan(1600);
  });

  it('starts over after a quiet stretch longer than the reset interval', () => {
    const clock = fakeClock();
    const backoff = new Backoff({}, clock, () => 0);
    backoff.next();
    backoff.next();
    clock.time += 60_000;
    expect(backoff.next()).toBe(3200);
    clock.time += 120_001;
    expect(backoff.next()).toBe(800);
  });
});
