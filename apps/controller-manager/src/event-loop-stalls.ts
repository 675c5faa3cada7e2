// The manager's event-loop stall recorder: started before anything heavy loads (main.ts) so the start-up's
// stalls are seen too, logged one line each from 100 ms on, and read by the /metrics gauges.
import { type EventLoopStall, EventLoopStallRecorder } from '@warmstart/sync-gate';
import type { Logger } from './logger.js';

const round = (ms: number | undefined) => (ms === undefined ? undefined : Math.round(ms));

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
        },
        'event loop stalled',
      ),
  });
}
