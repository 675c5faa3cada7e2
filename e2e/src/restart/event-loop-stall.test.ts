import { describe, expect, it } from 'vitest';
import { readEventLoopStall } from './event-loop-stall.js';

describe('readEventLoopStall', () => {
  it("reads the worst stall's parts in ms, and nothing from a manager without the gauge", () => {
    const text = [
      '# TYPE warmstart_event_loop_stall_max_seconds gauge',
      'warmstart_event_loop_stall_max_seconds{part="total"} 0.1764',
      'warmstart_event_loop_stall_max_seconds{part="on_cpu"} 0.041',
      'warmstart_event_loop_stall_max_seconds{part="gc"} 0.012',
      'warmstart_event_loop_stall_max_seconds{part="off_cpu"} 0.1354',
      'nodejs_eventloop_lag_max_seconds 0.2',
    ].join('\n');
    expect(readEventLoopStall(text)).toEqual({ totalMs: 176, onCpuMs: 41, gcMs: 12, offCpuMs: 135 });
    expect(readEventLoopStall(text.replace(/.*part="(on|off)_cpu".*\n/g, ''))).toEqual({
      totalMs: 176,
      onCpuMs: undefined,
      gcMs: 12,
      offCpuMs: undefined,
    });
    expect(readEventLoopStall('nodejs_eventloop_lag_max_seconds 0.2\n')).toBeUndefined();
  });
});
