import { describe, expect, it } from 'vitest';
import { readEventLoopStall, stallsInLog } from './event-loop-stall.js';

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

describe('stallsInLog', () => {
  it('reads the logged stalls of at least the given length, marking those before the manager served its probes', () => {
    const lines = [
      '{"level":30,"time":1796584877975,"gapMs":230,"onCpuMs":161,"gcMs":9,"offCpuMs":69,"runQueueMs":39,"otherThreadsCpuMs":28,"endMonotonicUs":73583321734,"msg":"event loop stalled"}',
      '{"level":30,"time":1796584878000,"msg":"serving probes"}',
      'not json at all "msg":"event loop stalled"',
      '{"level":30,"time":1796584878238,"gapMs":103,"onCpuMs":75,"gcMs":9,"offCpuMs":28,"endMonotonicUs":73583523364,"msg":"event loop stalled"}',
      '{"level":30,"time":1796584879238,"gapMs":284,"onCpuMs":19,"gcMs":0,"offCpuMs":265,"runQueueMs":0,"majorFaults":12,"endMonotonicUs":73584523364,"msg":"event loop stalled"}',
    ];
    expect(stallsInLog(lines, 200)).toEqual([
      {
        time: 1796584877975,
        endMonotonicUs: 73583321734,
        totalMs: 230,
        onCpuMs: 161,
        gcMs: 9,
        offCpuMs: 69,
        runQueueMs: 39,
        otherThreadsCpuMs: 28,
        majorFaults: undefined,
        afterProbes: false,
      },
      {
        time: 1796584879238,
        endMonotonicUs: 73584523364,
        totalMs: 284,
        onCpuMs: 19,
        gcMs: 0,
        offCpuMs: 265,
        runQueueMs: 0,
        otherThreadsCpuMs: undefined,
        majorFaults: 12,
        afterProbes: true,
      },
    ]);
    expect(stallsInLog(lines, 100)).toHaveLength(3);
  });
});
