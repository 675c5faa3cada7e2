// The manager's event-loop stall recorder: started before anything heavy loads (main.ts) so the start-up's
// stalls are seen too, logged one line each from 100 ms on, and read by the /metrics gauges.
import { performance } from 'node:perf_hooks';
import { type EventLoopStall, EventLoopStallRecorder } from '@warmstart/sync-gate';
import type { Logger } from './logger.js';

const round = (ms: number | undefined) => (ms === undefined ? undefined : Math.round(ms));

/** `atMs` (performance.now() time) on the monotonic clock, in µs. */
function monotonicUs(atMs: number): number {
  const nowUs = Number(process.hrtime.bigint() / 1000n);
  return Math.round(nowUs - (performance.now() - atMs) * 1000);
}

/** Starts recording stalls; each one of 100 ms or more is logged once at info. close() it on shutdown. */
export function recordEventLoopStalls(log: Logger): EventLoopStallRecorder {
  return new EventLoopStallRecorder({
    reportMs: 100,
    onStall: (stall: EventLoopStall) =>
      log.info(
        {
          gapMs: round(stall.gapMs),
          onCpuMs: round(stall.onCpuMs),
          gcMs: round(stall.gcMs),
          offCpuMs: round(stall.offCpuMs),
          runQueueMs: round(stall.runQueueMs),
          otherThreadsCpuMs: round(stall.otherThreadsCpuMs),
          majorFaults: stall.majorFaults,
          // The stall's end on the monotonic clock in µs, the clock a V8 CPU profile (--cpu-prof) stamps its
          // samples with: what ran during the stall is the samples between endMonotonicUs - gapMs*1000 and it.
          endMonotonicUs: monotonicUs(stall.endMs),
        },
        'event loop stalled',
      ),
  });
}
