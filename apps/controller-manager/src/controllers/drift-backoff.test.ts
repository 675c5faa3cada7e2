import { describe, expect, it } from 'vitest';
import { DriftBackoff } from './drift-backoff.js';

describe('DriftBackoff', () => {
  it('lets a few repairs through, then doubles the wait, and reports the first wait of a streak once', () => {
    const b = new DriftBackoff({ freeRepairs: 3, windowMs: 60_000, baseDelayMs: 5_000, maxDelayMs: 20_000 });
    let t = 0;
    const later = (ms: number) => {
      t += ms;
      return t;
    };
    for (let i = 0; i < 3; i++) expect(b.attempt('k', later(100))).toEqual({ kind: 'repair' });
    // Three repairs at once; the next waits 5 s, then 10 s, then 20 s (the cap), 20 s.
    expect(b.attempt('k', later(100))).toEqual({ kind: 'wait', delayMs: 4_900, repairs: 3, report: true });
    expect(b.attempt('k', later(100))).toMatchObject({ kind: 'wait', report: false });
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const d = b.attempt('k', t);
      if (d.kind !== 'wait') throw new Error('expected a wait');
      t += d.delayMs;
      expect(b.attempt('k', t)).toEqual({ kind: 'repair' });
      waits.push(d.delayMs);
    }
    expect(waits.slice(1)).toEqual([10_000, 20_000, 20_000]);
    // Another object is not held back.
    expect(b.attempt('other', t)).toEqual({ kind: 'repair' });
  });

  it('starts over after a quiet window', () => {
    const b = new DriftBackoff({ freeRepairs: 1, windowMs: 1_000, baseDelayMs: 500 });
    expect(b.attempt('k', 0)).toEqual({ kind: 'repair' });
    expect(b.attempt('k', 100)).toMatchObject({ kind: 'wait', delayMs: 400 });
    expect(b.attempt('k', 600)).toEqual({ kind: 'repair' });
    expect(b.attempt('k', 700)).toMatchObject({ kind: 'wait', delayMs: 900 });
    expect(b.attempt('k', 5_000)).toEqual({ kind: 'repair' });
    expect(b.attempt('k', 5_100)).toMatchObject({ kind: 'wait', delayMs: 400, report: true });
  });
});
