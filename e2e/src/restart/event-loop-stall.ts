// The manager's worst event-loop stall as its /metrics reports it (warmstart_event_loop_stall_max_seconds, from
// @warmstart/sync-gate's EventLoopStallRecorder): how long, and how much of it the main thread spent on CPU, in
// GC, and off CPU (asleep, or waiting for a core another process held).

/** A stall's split in ms. onCpuMs includes gcMs; onCpuMs + offCpuMs = totalMs. */
export interface EventLoopStallSplit {
  readonly totalMs: number;
  /** Absent where the manager's Node has no process.threadCpuUsage. */
  readonly onCpuMs?: number | undefined;
  readonly gcMs: number;
  readonly offCpuMs?: number | undefined;
  /** Of offCpuMs, the time the main thread waited for a core (Linux); absent from older managers. */
  readonly runQueueMs?: number | undefined;
  /** CPU the manager's other threads (GC helpers, libuv's pool) used during the stall. */
  readonly otherThreadsCpuMs?: number | undefined;
}

const NAME = 'warmstart_event_loop_stall_max_seconds';

/** The part's sample in ms, or undefined when the exposition has none (a manager from before the gauge). */
function partMs(text: string, part: string): number | undefined {
  const prefix = `${NAME}{part="${part}"} `;
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return line === undefined ? undefined : Math.round(Number(line.slice(prefix.length)) * 1000);
}

/** The worst stall since the manager started, from one scrape of its /metrics; undefined without the gauge. */
export function readEventLoopStall(metricsText: string): EventLoopStallSplit | undefined {
  const totalMs = partMs(metricsText, 'total');
  if (totalMs === undefined) return undefined;
  return {
    totalMs,
    onCpuMs: partMs(metricsText, 'on_cpu'),
    gcMs: partMs(metricsText, 'gc') ?? 0,
    offCpuMs: partMs(metricsText, 'off_cpu'),
    runQueueMs: partMs(metricsText, 'run_queue'),
    otherThreadsCpuMs: partMs(metricsText, 'other_threads'),
  };
}

/** One stall as the manager logged it ("event loop stalled", 100 ms or more). */
export interface LoggedStall extends EventLoopStallSplit {
  /** The log line's time (ms since the epoch). */
  readonly time: number;
  /** The stall's end on CLOCK_MONOTONIC, µs; its start is endMonotonicUs - totalMs * 1000. */
  readonly endMonotonicUs: number;
  /** The manager's page-ins during the stall; absent from managers before the recorder counted them. */
  readonly majorFaults?: number | undefined;
  /** Whether the manager had started serving its probes by then (stalls before are its start-up's). */
  readonly afterProbes: boolean;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/**
 * The stalls of at least `minMs` in one manager's JSON log lines, in order. Lines that are not JSON are skipped.
 */
export function stallsInLog(lines: Iterable<string>, minMs: number): LoggedStall[] {
  const stalls: LoggedStall[] = [];
  let afterProbes = false;
  for (const line of lines) {
    if (!line.includes('"msg":"event loop stalled"') && !line.includes('"msg":"serving probes"')) continue;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (record.msg === 'serving probes') {
      afterProbes = true;
      continue;
    }
    const totalMs = num(record.gapMs);
    const endMonotonicUs = num(record.endMonotonicUs);
    if (totalMs === undefined || endMonotonicUs === undefined || totalMs < minMs) continue;
    stalls.push({
      time: num(record.time) ?? 0,
      endMonotonicUs,
      totalMs,
      onCpuMs: num(record.onCpuMs),
      gcMs: num(record.gcMs) ?? 0,
      offCpuMs: num(record.offCpuMs),
      runQueueMs: num(record.runQueueMs),
      otherThreadsCpuMs: num(record.otherThreadsCpuMs),
      majorFaults: num(record.majorFaults),
      afterProbes,
    });
  }
  return stalls;
}
