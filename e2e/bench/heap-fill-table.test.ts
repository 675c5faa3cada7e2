import { describe, expect, it } from 'vitest';
import type { HeapFillResult } from './heap-fill-protocol.js';
import { heapFillTable } from './heap-fill-table.js';

const base: HeapFillResult = {
  nodeFlags: ['--max-old-space-size=12288'],
  objects: 600_000,
  fillS: 41.26,
  stalls: [],
  majorGcs: [],
  gcPauseSumMs: 5_800,
  heapUsedBytes: 2_200 * 2 ** 20,
  rssPeakBytes: 2_500 * 2 ** 20,
};

const cells = (table: string) =>
  table
    .split('\n')[2]
    ?.split('|')
    .map((c) => c.trim());

describe('heapFillTable', () => {
  it('says so when nothing stalled and no full GC ran', () => {
    expect(cells(heapFillTable([base]))).toEqual([
      '',
      '`--max-old-space-size=12288`',
      '600000',
      '41.3 s',
      'none of 100 ms or more',
      '0 / 0 / 0',
      '0 / 0 / 0',
      'none',
      '5.8 s',
      '2200 MiB',
      '2500 MiB',
      '',
    ]);
  });

  it('gives the worst stall with its phase and split, counts those of 100 and of 200 ms or more per phase, and lists full GCs', () => {
    const row = cells(
      heapFillTable([
        {
          ...base,
          stalls: [
            { phase: 'fill', atS: 12.5, gapMs: 488, onCpuMs: 120, gcMs: 110, runQueueMs: 350 },
            { phase: 'fill', atS: 20, gapMs: 150, onCpuMs: 60, gcMs: 0, runQueueMs: 80 },
            { phase: 'quiet', atS: 171.2, gapMs: 230, onCpuMs: undefined, gcMs: 212, runQueueMs: undefined },
          ],
          majorGcs: [
            { phase: 'fill', atS: 12.4, pauseMs: 110, flags: 64 },
            { phase: 'quiet', atS: 171, pauseMs: 212, flags: 32 },
          ],
        },
      ]),
    );
    expect(row?.[4]).toBe('488 ms in fill at 12.5 s (on CPU 120, GC 110, waiting for a core 350)');
    expect(row?.[5]).toBe('2 / 0 / 1');
    expect(row?.[6]).toBe('1 / 0 / 1');
    expect(row?.[7]).toBe('fill 12.4 s: 110 ms; quiet 171 s: 212 ms');
  });
});
