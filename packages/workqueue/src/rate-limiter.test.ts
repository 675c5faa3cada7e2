import { describe, expect, it } from 'vitest';
import {
  defaultControllerRateLimiter,
  exponentialFailureRateLimiter,
  maxOf,
  type RateLimiter,
  tokenBucketRateLimiter,
} from './rate-limiter.js';

function delays(limiter: RateLimiter, key: string, n: number): number[] {
  return Array.from({ length: n }, () => limiter.when(key));
}

describe('exponentialFailureRateLimiter', () => {
  it('doubles from 5 ms per failure and caps at 1000 s', () => {
    const l = exponentialFailureRateLimiter();
    expect(delays(l, 'a', 5)).toEqual([5, 10, 20, 40, 80]);
    // 5 ms * 2^17 = 655.36 s, 2^18 would be 1310.72 s: the cap applies from the 19th failure.
    const more = delays(l, 'a', 14);
    expect(more.at(-2)).toBe(655_360);
    expect(more.at(-1)).toBe(1_000_000);
    expect(l.when('a')).toBe(1_000_000);
    expect(l.numRequeues('a')).toBe(20);
  });

  it('keeps keys apart and forget resets one key', () => {
    const l = exponentialFailureRateLimiter({ baseDelayMs: 1, maxDelayMs: 4 });
    expect(delays(l, 'a', 4)).toEqual([1, 2, 4, 4]);
    expect(l.when('b')).toBe(1);
    l.forget('a');
    expect(l.numRequeues('a')).toBe(0);
    expect(l.numRequeues('b')).toBe(1);
    expect(l.when('a')).toBe(1);
  });

  it('stays at the cap after very many failures', () => {
    const l = exponentialFailureRateLimiter();
    const all = delays(l, 'a', 2000);
    expect(all.at(-1)).toBe(1_000_000);
  });

  it('rejects a cap below the base', () => {
    expect(() => exponentialFailureRateLimiter({ baseDelayMs: 10, maxDelayMs: 5 })).toThrow(RangeError);
  });
});

describe('tokenBucketRateLimiter', () => {
  it('lets a burst through, then spaces retries at 1/qps', () => {
    let now = 0;
    const l = tokenBucketRateLimiter({ qps: 10, burst: 100, now: () => now });
    expect(delays(l, 'x', 100).every((d) => d === 0)).toBe(true);
    expect(delays(l, 'x', 3)).toEqual([100, 200, 300]);
    // A second later ten tokens have come back; three repay the callers already promised one, so the next
    // retry may go at once.
    now = 1000;
    expect(l.when('x')).toBe(0);
    expect(l.numRequeues('x')).toBe(0);
  });

  it('refills up to the burst only', () => {
    let now = 0;
    const l = tokenBucketRateLimiter({ qps: 1, burst: 2, now: () => now });
    now = 60_000;
    expect(delays(l, 'x', 3)).toEqual([0, 0, 1000]);
  });

  it('rejects a non-positive qps', () => {
    expect(() => tokenBucketRateLimiter({ qps: 0, burst: 1 })).toThrow(RangeError);
  });
});

describe('maxOf', () => {
  it('takes the longest delay and records failures in every limiter', () => {
    let now = 0;
    const l = maxOf(
      exponentialFailureRateLimiter(),
      tokenBucketRateLimiter({ qps: 10, burst: 2, now: () => now }),
    );
    expect(delays(l, 'a', 4)).toEqual([5, 10, 100, 200]);
    expect(l.numRequeues('a')).toBe(4);
    l.forget('a');
    expect(l.numRequeues('a')).toBe(0);
    now = 10_000;
    expect(l.when('a')).toBe(5);
  });

  it('client-go default: exponential per key under an overall 10 qps, burst 100', () => {
    const now = 0;
    const l = defaultControllerRateLimiter(() => now);
    const firstFailures = Array.from({ length: 100 }, (_, i) => l.when(`k${i}`));
    expect(firstFailures.every((d) => d === 5)).toBe(true);
    expect(l.when('k100')).toBe(100);
  });
});
