// Event-loop stalls split by cause. An event-loop delay figure (monitorEventLoopDelay, prom-client's
// nodejs_eventloop_lag_*) says how late a timer fired, not why: on a busy shared machine the main thread may
// have been runnable but waiting for a core, which no profile of the process shows. Reading the thread's own
// CPU clock at each tick tells work on the loop (on CPU, GC included) from time the thread did not run.
import { type PerformanceEntry, PerformanceObserver, performance } from 'node:perf_hooks';
import { openRunQueueClock } from './run-queue-clock.js';

/** One gap between two ticks of the recorder that was longer than the interval plus the threshold. */
export interface EventLoopStall {
  /** Wall time between the two ticks, in ms (the interval the timer was asked for included). */
  readonly gapMs: number;
  /** Main-thread CPU time spent during the gap, in ms; undefined where Node has no process.threadCpuUsage. */
  readonly onCpuMs: number | undefined;
  /** Main-thread GC pauses that started during the gap, in ms (part of onCpuMs). */
  readonly gcMs: number;
  /**
   * gapMs - onCpuMs, at least 0: the thread was runnable but not scheduled (the machine's cores were busy
   * elsewhere), or asleep (a synchronous wait, or the ordinary sleep of up to one interval between ticks).
   */
  readonly offCpuMs: number | undefined;
  /**
   * Of offCpuMs, the time the thread was runnable and waited for a core (Linux's per-thread run-queue delay);
   * undefined where the kernel does not say. The rest of offCpuMs the thread was asleep.
   */
  readonly runQueueMs: number | undefined;
  /**
   * CPU time the process's other threads (V8's GC helpers, libuv's pool) used during the gap: on a machine with
   * few cores they compete with the main thread for them. Undefined without process.threadCpuUsage.
   */
  readonly otherThreadsCpuMs: number | undefined;
  /**
   * Major page faults of the whole process during the gap (pages read back from disk: a binary's code, a mapped
   * file); undefined where the platform does not count them, and optional so stalls built by hand may leave it
   * out. A stall off CPU, not waiting for a core and with none of these was not a page-in of ours: a sleep, a
   * lock, or the machine itself paused.
   */
  readonly majorFaults?: number | undefined;
  /** performance.now() when the loop ran the recorder's tick again, that is when the stall ended. */
  readonly endMs: number;
}

/** Stall figures since the recorder started. */
export interface EventLoopStallTotals {
  /** Stalls seen (gaps longer than intervalMs + thresholdMs). */
  readonly stalls: number;
  /** Stalls with gapMs >= 100. */
  readonly over100Ms: number;
  /** Stalls with gapMs >= 200. */
  readonly over200Ms: number;
  /** Sum of gapMs over every stall. */
  readonly gapMs: number;
  /** Sum of onCpuMs over every stall; undefined without process.threadCpuUsage. */
  readonly onCpuMs: number | undefined;
  /** Sum of gcMs over every stall. */
  readonly gcMs: number;
  /** Sum of offCpuMs over every stall; undefined without process.threadCpuUsage. */
  readonly offCpuMs: number | undefined;
  /** Sum of runQueueMs over every stall; undefined where the kernel does not report it. */
  readonly runQueueMs: number | undefined;
}

/** The clocks a recorder reads at each tick; tests pass a fake. */
export interface StallClock {
  /** Monotonic wall time in ms, in performance.now()'s time base (GC pauses are reported in it). */
  wallMs(): number;
  /** CPU time the main thread has used, in ms; undefined when the platform cannot say. */
  threadCpuMs(): number | undefined;
  /** CPU time the whole process has used, in ms (every thread). */
  processCpuMs?(): number | undefined;
  /** Time the main thread has spent runnable but waiting for a core, in ms; undefined when unknown. */
  runQueueMs?(): number | undefined;
  /** Major page faults the process has taken; undefined when unknown. */
  majorFaults?(): number | undefined;
}

/** A main-thread GC pause: when it started (performance.now() time base) and how long it took, in ms. */
export interface GcPause {
  readonly startMs: number;
  readonly durationMs: number;
}

/** Where GC pauses come from; tests pass a fake. */
export interface GcPauseSource {
  /** Starts reporting pauses to `onPause`. */
  subscribe(onPause: (pause: GcPause) => void): GcPauseSubscription;
}

export interface GcPauseSubscription {
  /** Reports at once any pause observed but not delivered yet. */
  flush(): void;
  /** Stops reporting. */
  unsubscribe(): void;
}

export interface EventLoopStallRecorderOptions {
  /** How often the recorder's timer ticks, in ms: the shortest stall it can see. Default 10. */
  readonly intervalMs?: number | undefined;
  /** A gap longer than intervalMs + thresholdMs is a stall. Default 20. */
  readonly thresholdMs?: number | undefined;
  /** How far back recentWorst() looks, in ms: between one and two windows. Default 10,000. */
  readonly windowMs?: number | undefined;
  /** Stalls with gapMs at least this long are passed to onStall. Default 100. */
  readonly reportMs?: number | undefined;
  /** Called once for each stall of at least reportMs, about one interval after it ended (to log it). */
  readonly onStall?: ((stall: EventLoopStall) => void) | undefined;
  /** Default: performance.now() and process.threadCpuUsage(). */
  readonly clock?: StallClock | undefined;
  /** Default: a PerformanceObserver for 'gc' entries. */
  readonly gcPauses?: GcPauseSource | undefined;
}

/** process.threadCpuUsage arrived in Node 23.9; the package supports 22.19, where it is missing. */
function threadCpuClock(): () => number | undefined {
  if (typeof process.threadCpuUsage !== 'function') return () => undefined;
  return () => {
    const { user, system } = process.threadCpuUsage();
    return (user + system) / 1000;
  };
}

function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** getrusage's ru_majflt: a syscall and a small object, no buffer (see run-queue-clock.ts for why that matters). */
function majorFaults(): number | undefined {
  // Windows reports no such count (0 always); 0 there would read as "no page-in", which it does not say.
  return process.platform === 'win32' ? undefined : process.resourceUsage().majorPageFault;
}

/** The process's own clocks; Linux also reports the run-queue delay (the descriptor is closed on close()). */
function defaultClock(): { readonly clock: StallClock; readonly close: () => void } {
  const runQueue = openRunQueueClock();
  return {
    clock: {
      wallMs: () => performance.now(),
      threadCpuMs: threadCpuClock(),
      processCpuMs,
      runQueueMs: runQueue === undefined ? () => undefined : runQueue.read,
      majorFaults,
    },
    close: () => runQueue?.close(),
  };
}

/** GC pauses from perf_hooks: each 'gc' entry is a pause of the thread that observes it. */
const observedGcPauses: GcPauseSource = {
  subscribe(onPause) {
    const deliver = (entries: readonly PerformanceEntry[]) => {
      for (const e of entries) onPause({ startMs: e.startTime, durationMs: e.duration });
    };
    const observer = new PerformanceObserver((list) => deliver(list.getEntries()));
    observer.observe({ entryTypes: ['gc'] });
    return {
      // Entries reach the callback on a later immediate; takeRecords() hands over those still queued.
      flush: () => deliver(observer.takeRecords()),
      unsubscribe: () => observer.disconnect(),
    };
  },
};

interface PendingStall {
  readonly fromMs: number;
  readonly toMs: number;
  readonly onCpuMs: number | undefined;
  readonly runQueueMs: number | undefined;
  readonly processCpuMs: number | undefined;
  readonly majorFaults: number | undefined;
}

/**
 * Records event-loop stalls with an unref'd timer and splits each into on-CPU (GC included) and off-CPU time.
 * A stall is settled one tick after it ends, so the GC entries of the pauses inside it have been delivered.
 */
export class EventLoopStallRecorder {
  readonly #intervalMs: number;
  readonly #stallMs: number;
  readonly #windowMs: number;
  readonly #reportMs: number;
  readonly #onStall: ((stall: EventLoopStall) => void) | undefined;
  readonly #clock: StallClock;
  readonly #closeClock: () => void;
  readonly #gc: GcPauseSubscription;
  readonly #timer: NodeJS.Timeout;
  #pauses: GcPause[] = [];
  #pending: PendingStall[] = [];
  #lastWallMs: number;
  #lastCpuMs: number | undefined;
  #lastProcessCpuMs: number | undefined;
  #lastRunQueueMs: number | undefined;
  #lastMajorFaults: number | undefined;
  #closed = false;

  #worst: EventLoopStall | undefined;
  #windowStartMs: number;
  #windowWorst: EventLoopStall | undefined;
  #previousWindowWorst: EventLoopStall | undefined;

  #stalls = 0;
  #over100Ms = 0;
  #over200Ms = 0;
  #gapSumMs = 0;
  #onCpuSumMs: number | undefined = 0;
  #gcSumMs = 0;
  #offCpuSumMs: number | undefined = 0;
  #runQueueSumMs: number | undefined = 0;

  /** Starts ticking at once. Call close() to stop. */
  constructor(options: EventLoopStallRecorderOptions = {}) {
    this.#intervalMs = Math.max(1, Math.round(options.intervalMs ?? 10));
    this.#stallMs = this.#intervalMs + Math.max(0, options.thresholdMs ?? 20);
    this.#windowMs = options.windowMs ?? 10_000;
    this.#reportMs = options.reportMs ?? 100;
    this.#onStall = options.onStall;
    if (options.clock !== undefined) {
      this.#clock = options.clock;
      this.#closeClock = () => {};
    } else {
      const own = defaultClock();
      this.#clock = own.clock;
      this.#closeClock = own.close;
    }
    this.#lastWallMs = this.#clock.wallMs();
    this.#lastCpuMs = this.#clock.threadCpuMs();
    this.#lastProcessCpuMs = this.#clock.processCpuMs?.();
    this.#lastRunQueueMs = this.#clock.runQueueMs?.();
    this.#lastMajorFaults = this.#clock.majorFaults?.();
    if (this.#lastRunQueueMs === undefined) this.#runQueueSumMs = undefined;
    this.#windowStartMs = this.#lastWallMs;
    if (this.#lastCpuMs === undefined) {
      this.#onCpuSumMs = undefined;
      this.#offCpuSumMs = undefined;
    }
    this.#gc = (options.gcPauses ?? observedGcPauses).subscribe((pause) => this.#pauses.push(pause));
    this.#timer = setInterval(() => this.#tick(), this.#intervalMs);
    this.#timer.unref();
  }

  /** The longest stall since the recorder started, or undefined if there was none. */
  get worst(): EventLoopStall | undefined {
    return this.#worst;
  }

  /**
   * The longest stall that ended in the current or the previous window. Rotating two windows means a stall is
   * reported for at least one window and forgotten after two.
   */
  recentWorst(): EventLoopStall | undefined {
    this.#rotate(this.#clock.wallMs());
    return longer(this.#previousWindowWorst, this.#windowWorst);
  }

  /** Counts and sums since the recorder started. */
  totals(): EventLoopStallTotals {
    return {
      stalls: this.#stalls,
      over100Ms: this.#over100Ms,
      over200Ms: this.#over200Ms,
      gapMs: this.#gapSumMs,
      onCpuMs: this.#onCpuSumMs,
      gcMs: this.#gcSumMs,
      offCpuMs: this.#offCpuSumMs,
      runQueueMs: this.#runQueueSumMs,
    };
  }

  /** Stops the timer and the GC observer, settling a stall that ended at the last tick. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    this.#gc.flush();
    this.#settle();
    this.#gc.unsubscribe();
    this.#closeClock();
    this.#pauses = [];
  }

  #tick(): void {
    const nowMs = this.#clock.wallMs();
    const cpuMs = this.#clock.threadCpuMs();
    const processMs = this.#clock.processCpuMs?.();
    const runQueueMs = this.#clock.runQueueMs?.();
    const faults = this.#clock.majorFaults?.();
    // Stalls that ended at an earlier tick: the loop has run its immediates since, so their GC entries are in.
    this.#gc.flush();
    this.#settle();
    const gapMs = nowMs - this.#lastWallMs;
    if (gapMs > this.#stallMs) {
      const onCpuMs =
        cpuMs === undefined || this.#lastCpuMs === undefined ? undefined : cpuMs - this.#lastCpuMs;
      const delta = (now: number | undefined, last: number | undefined) =>
        now === undefined || last === undefined ? undefined : now - last;
      this.#pending.push({
        fromMs: this.#lastWallMs,
        toMs: nowMs,
        onCpuMs,
        runQueueMs: delta(runQueueMs, this.#lastRunQueueMs),
        processCpuMs: delta(processMs, this.#lastProcessCpuMs),
        majorFaults: delta(faults, this.#lastMajorFaults),
      });
    }
    this.#lastWallMs = nowMs;
    this.#lastCpuMs = cpuMs;
    this.#lastProcessCpuMs = processMs;
    this.#lastRunQueueMs = runQueueMs;
    this.#lastMajorFaults = faults;
    // Pauses before the oldest unsettled gap (or before this tick) can belong to no stall any more.
    const keepFromMs = this.#pending[0]?.fromMs ?? nowMs;
    this.#pauses = this.#pauses.filter((p) => p.startMs >= keepFromMs);
  }

  #settle(): void {
    const pending = this.#pending;
    if (pending.length === 0) return;
    this.#pending = [];
    for (const p of pending) {
      const gapMs = p.toMs - p.fromMs;
      let gcMs = 0;
      for (const pause of this.#pauses) {
        if (pause.startMs >= p.fromMs && pause.startMs < p.toMs) gcMs += pause.durationMs;
      }
      // CPU clocks and GC timestamps are read at slightly different moments from the wall clock; a part
      // larger than the whole would only be that skew.
      const onCpuMs = p.onCpuMs === undefined ? undefined : Math.min(gapMs, Math.max(0, p.onCpuMs));
      const offCpuMs = onCpuMs === undefined ? undefined : gapMs - onCpuMs;
      this.#record({
        gapMs,
        onCpuMs,
        gcMs: Math.min(gapMs, gcMs),
        offCpuMs,
        runQueueMs:
          p.runQueueMs === undefined ? undefined : Math.min(offCpuMs ?? gapMs, Math.max(0, p.runQueueMs)),
        otherThreadsCpuMs:
          p.processCpuMs === undefined || p.onCpuMs === undefined
            ? undefined
            : Math.max(0, p.processCpuMs - p.onCpuMs),
        majorFaults: p.majorFaults === undefined ? undefined : Math.max(0, p.majorFaults),
        endMs: p.toMs,
      });
    }
  }

  #record(stall: EventLoopStall): void {
    this.#stalls++;
    if (stall.gapMs >= 100) this.#over100Ms++;
    if (stall.gapMs >= 200) this.#over200Ms++;
    this.#gapSumMs += stall.gapMs;
    this.#gcSumMs += stall.gcMs;
    this.#onCpuSumMs =
      this.#onCpuSumMs === undefined || stall.onCpuMs === undefined
        ? undefined
        : this.#onCpuSumMs + stall.onCpuMs;
    this.#offCpuSumMs =
      this.#offCpuSumMs === undefined || stall.offCpuMs === undefined
        ? undefined
        : this.#offCpuSumMs + stall.offCpuMs;
    this.#runQueueSumMs =
      this.#runQueueSumMs === undefined || stall.runQueueMs === undefined
        ? undefined
        : this.#runQueueSumMs + stall.runQueueMs;
    this.#worst = longer(this.#worst, stall);
    this.#rotate(stall.endMs);
    this.#windowWorst = longer(this.#windowWorst, stall);
    if (stall.gapMs >= this.#reportMs) this.#onStall?.(stall);
  }

  #rotate(nowMs: number): void {
    const elapsed = nowMs - this.#windowStartMs;
    if (elapsed < this.#windowMs) return;
    // Two windows or more without a look: the previous window saw nothing either.
    this.#previousWindowWorst = elapsed < 2 * this.#windowMs ? this.#windowWorst : undefined;
    this.#windowWorst = undefined;
    this.#windowStartMs = nowMs;
  }
}

function longer(a: EventLoopStall | undefined, b: EventLoopStall | undefined): EventLoopStall | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return b.gapMs > a.gapMs ? b : a;
}
