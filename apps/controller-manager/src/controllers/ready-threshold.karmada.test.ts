// Karmada's TestThresholdAdjustedReadyCondition (pkg/controllers/status/cluster_condition_cache_test.go at
// f8fdd02df3760fd9521624f284877fa84e7be6ef), as data: 30 s thresholds both ways, the saved observation given as
// its status and how long ago it started.
import { describe, expect, it } from 'vitest';
import { ReadyThreshold } from './ready-threshold.js';

const THRESHOLD = 30_000;
const NOW = 1_000_000_000;

interface Case {
  readonly name: string;
  /** The previous observation: its status and how long before now it began; absent when there is none. */
  readonly saved?: { readonly status: 'True' | 'False'; readonly ago: number };
  readonly current?: 'True' | 'False';
  readonly observed: 'True' | 'False';
  readonly expected: 'True' | 'False';
}

const cases: readonly Case[] = [
  { name: 'cluster just joined in ready state', observed: 'True', expected: 'True' },
  { name: 'cluster just joined in not-ready state', observed: 'False', expected: 'False' },
  {
    name: 'cluster stays ready',
    saved: { status: 'True', ago: 0 },
    current: 'True',
    observed: 'True',
    expected: 'True',
  },
  {
    name: 'cluster becomes not ready but still not reach failure threshold',
    saved: { status: 'False', ago: THRESHOLD / 2 },
    current: 'True',
    observed: 'False',
    expected: 'True',
  },
  {
    name: 'cluster becomes not ready and reaches failure threshold',
    saved: { status: 'False', ago: THRESHOLD },
    current: 'True',
    observed: 'False',
    expected: 'False',
  },
  {
    name: 'cluster stays not ready',
    saved: { status: 'False', ago: 2 * THRESHOLD },
    current: 'False',
    observed: 'False',
    expected: 'False',
  },
  {
    name: 'cluster recovers but still not reach success threshold',
    saved: { status: 'True', ago: THRESHOLD / 2 },
    current: 'False',
    observed: 'True',
    expected: 'False',
  },
  {
    name: 'cluster recovers and reaches success threshold',
    saved: { status: 'True', ago: THRESHOLD },
    current: 'False',
    observed: 'True',
    expected: 'True',
  },
  {
    name: 'ready condition changes from true to false',
    saved: { status: 'True', ago: 600_000 },
    current: 'True',
    observed: 'False',
    expected: 'True',
  },
  {
    name: 'ready condition changes from false to true',
    saved: { status: 'False', ago: 600_000 },
    current: 'False',
    observed: 'True',
    expected: 'False',
  },
  {
    name: 'current condition is nil, should return observed condition',
    saved: { status: 'False', ago: THRESHOLD },
    observed: 'True',
    expected: 'True',
  },
];

describe('ReadyThreshold against Karmada TestThresholdAdjustedReadyCondition (f8fdd02)', () => {
  for (const c of cases) {
    it(c.name, () => {
      let now = NOW;
      const threshold = new ReadyThreshold({ successMs: THRESHOLD, failureMs: THRESHOLD }, () => now);
      if (c.saved) {
        // Seed the saved observation: a first check (no current condition) records it as it is.
        now = NOW - c.saved.ago;
        threshold.holds('member', undefined, c.saved.status);
        now = NOW;
      }
      const written = threshold.holds('member', c.current, c.observed) ? c.current : c.observed;
      expect(written).toBe(c.expected);
    });
  }
});

describe('ReadyThreshold over time', () => {
  it('keeps a Ready member Ready through failures shorter than the threshold, then marks it not Ready', () => {
    let now = NOW;
    const t = new ReadyThreshold({ successMs: 30_000, failureMs: 30_000 }, () => now);
    expect(t.holds('m', undefined, 'True')).toBe(false);
    now += 10_000;
    expect(t.holds('m', 'True', 'False')).toBe(true);
    now += 10_000;
    expect(t.holds('m', 'True', 'True')).toBe(false);
    // The failures start again: so does their clock.
    now += 10_000;
    expect(t.holds('m', 'True', 'False')).toBe(true);
    now += 29_999;
    expect(t.holds('m', 'True', 'False')).toBe(true);
    now += 1;
    expect(t.holds('m', 'True', 'False')).toBe(false);
  });

  it('uses the success threshold for a not-Ready member that recovers', () => {
    let now = NOW;
    const t = new ReadyThreshold({ successMs: 5_000, failureMs: 60_000 }, () => now);
    t.holds('m', undefined, 'False');
    now += 1_000;
    expect(t.holds('m', 'False', 'True')).toBe(true);
    now += 5_000;
    expect(t.holds('m', 'False', 'True')).toBe(false);
  });

  it('forgets a deleted Cluster: the next check is written as observed', () => {
    let now = NOW;
    const t = new ReadyThreshold({ successMs: 30_000, failureMs: 30_000 }, () => now);
    t.holds('m', undefined, 'True');
    now += 1_000;
    expect(t.holds('m', 'True', 'False')).toBe(true);
    t.forget('m');
    expect(t.holds('m', 'True', 'False')).toBe(false);
  });
});
