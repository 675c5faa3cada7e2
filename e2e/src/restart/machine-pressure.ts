// What the whole machine went through while a manager's event loop stalled. The manager's recorder splits a stall
// into its own CPU, waiting for a core and the rest ("off CPU, not runnable"); the rest has causes outside the
// process: the hypervisor running another guest on our vCPU (steal), memory reclaim (pressure stall information),
// pages read back from disk. The bench samples those counters every 100 ms and, for each long stall of a manager,
// reads how much each grew across it. CLOCK_MONOTONIC is system-wide, so the manager's endMonotonicUs and these
// samples share one time line.
//
// One thing no counter here can show: the whole VM paused. This machine's guest CLOCK_MONOTONIC stops while the
// VM is paused and the wall clock is stepped forward on resume (a 100k run saw pauses of 10 s, 8 s and 250 s
// within eight minutes, every process silent meanwhile, none of it a stall on the monotonic clock). The samples
// also read the wall clock, so a pause shows as the wall clock getting ahead of the monotonic one.
import { readFileSync } from 'node:fs';
import { procStatCpuFields, TICKS_PER_SECOND } from './process-cpu.js';

/** Cumulative counters of the machine at one moment. Absent where the kernel does not provide them. */
export interface MachineCounters {
  /** CLOCK_MONOTONIC, µs. */
  readonly monotonicUs: number;
  /** The wall clock (Date.now()), ms; absent from samples built without it. */
  readonly wallMs?: number | undefined;
  /** All CPUs' steal time (a VM's vCPU ready but the host running something else), ms. */
  readonly stealMs?: number | undefined;
  /** All CPUs' idle time with I/O outstanding, ms. */
  readonly iowaitMs?: number | undefined;
  /** Pressure stall information: time some / all non-idle tasks were stalled on memory, µs. */
  readonly memorySomeUs?: number | undefined;
  readonly memoryFullUs?: number | undefined;
  /** The same for I/O. */
  readonly ioSomeUs?: number | undefined;
  readonly ioFullUs?: number | undefined;
  /** Major page faults of every process since boot. */
  readonly majorFaults?: number | undefined;
}

/** How much each counter grew over a window; `coveredMs` is the window the two samples bracket. */
export interface MachineDuring {
  readonly coveredMs: number;
  /** How far the wall clock got ahead of CLOCK_MONOTONIC over the window, ms: the VM was paused that long. */
  readonly pausedMs?: number | undefined;
  readonly stealMs?: number | undefined;
  readonly iowaitMs?: number | undefined;
  readonly memorySomeMs?: number | undefined;
  readonly memoryFullMs?: number | undefined;
  readonly ioSomeMs?: number | undefined;
  readonly ioFullMs?: number | undefined;
  readonly majorFaults?: number | undefined;
}

/** /proc/stat counts CPU time in the same USER_HZ ticks as /proc/<pid>/stat. */
const MS_PER_TICK = 1000 / TICKS_PER_SECOND;

/** Steal and iowait, in ms, from the aggregate "cpu" line of /proc/stat; undefined when there is no such line. */
export function parseProcStatCpu(text: string): { stealMs: number; iowaitMs: number } | undefined {
  const fields = procStatCpuFields(text);
  if (fields === undefined) return undefined;
  const iowait = Number(fields[5]);
  const steal = Number(fields[8]);
  if (!Number.isFinite(iowait) || !Number.isFinite(steal)) return undefined;
  return { stealMs: steal * MS_PER_TICK, iowaitMs: iowait * MS_PER_TICK };
}

/** The "some" and "full" totals (µs) of a /proc/pressure/* file; full is absent from the cpu file on old kernels. */
export function parsePressure(text: string): { someUs?: number; fullUs?: number } {
  const total = (kind: string) => {
    const m = new RegExp(`^${kind} .*\\btotal=(\\d+)`, 'm').exec(text);
    return m?.[1] === undefined ? undefined : Number(m[1]);
  };
  const someUs = total('some');
  const fullUs = total('full');
  return { ...(someUs === undefined ? {} : { someUs }), ...(fullUs === undefined ? {} : { fullUs }) };
}

/** pgmajfault from /proc/vmstat. */
export function parseMajorFaults(text: string): number | undefined {
  const m = /^pgmajfault (\d+)$/m.exec(text);
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    // A kernel without PSI (or not Linux): that counter is absent, the others still count.
    return '';
  }
}

export function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** The machine's counters now. */
export function readMachineCounters(): MachineCounters {
  const monotonic = monotonicUs();
  const wallMs = Date.now();
  const cpu = parseProcStatCpu(readOrEmpty('/proc/stat'));
  const memory = parsePressure(readOrEmpty('/proc/pressure/memory'));
  const io = parsePressure(readOrEmpty('/proc/pressure/io'));
  return {
    monotonicUs: monotonic,
    wallMs,
    stealMs: cpu?.stealMs,
    iowaitMs: cpu?.iowaitMs,
    memorySomeUs: memory.someUs,
    memoryFullUs: memory.fullUs,
    ioSomeUs: io.someUs,
    ioFullUs: io.fullUs,
    majorFaults: parseMajorFaults(readOrEmpty('/proc/vmstat')),
  };
}

/**
 * The growth of each counter between the last sample at or before `fromUs` and the first at or after `toUs`
 * (samples in time order); undefined when the samples do not bracket the window.
 */
export function machineDuring(
  samples: readonly MachineCounters[],
  fromUs: number,
  toUs: number,
): MachineDuring | undefined {
  let before: MachineCounters | undefined;
  let after: MachineCounters | undefined;
  for (const s of samples) {
    if (s.monotonicUs <= fromUs) before = s;
    if (s.monotonicUs >= toUs) {
      after = s;
      break;
    }
  }
  if (before === undefined || after === undefined) return undefined;
  const grew = (a: number | undefined, b: number | undefined, scale = 1) =>
    a === undefined || b === undefined ? undefined : Math.round((b - a) / scale);
  const coveredMs = Math.round((after.monotonicUs - before.monotonicUs) / 1000);
  return {
    coveredMs,
    pausedMs: pausedBetween(before, after),
    stealMs: grew(before.stealMs, after.stealMs),
    iowaitMs: grew(before.iowaitMs, after.iowaitMs),
    memorySomeMs: grew(before.memorySomeUs, after.memorySomeUs, 1000),
    memoryFullMs: grew(before.memoryFullUs, after.memoryFullUs, 1000),
    ioSomeMs: grew(before.ioSomeUs, after.ioSomeUs, 1000),
    ioFullMs: grew(before.ioFullUs, after.ioFullUs, 1000),
    majorFaults: grew(before.majorFaults, after.majorFaults),
  };
}

/** The wall clock's lead over CLOCK_MONOTONIC from one sample to a later one, ms; undefined without wall times. */
function pausedBetween(a: MachineCounters, b: MachineCounters): number | undefined {
  if (a.wallMs === undefined || b.wallMs === undefined) return undefined;
  return Math.round(b.wallMs - a.wallMs - (b.monotonicUs - a.monotonicUs) / 1000);
}

/** A jump of the wall clock against CLOCK_MONOTONIC between two samples: the VM paused (or the clock was set). */
export interface MachinePause {
  /** The wall clock (ms since the epoch) at the sample after the jump, when the machine ran again. */
  readonly resumedAtMs: number;
  /** CLOCK_MONOTONIC (µs) at that sample; a pause has no length on that clock. */
  readonly monotonicUs: number;
  /** The wall clock's jump, ms: positive, the VM was paused that long; negative, the clock was set back. */
  readonly jumpMs: number;
}

/**
 * Every jump of at least `minMs` (either way) of the wall clock against CLOCK_MONOTONIC between consecutive samples
 * taken within [fromUs, toUs] (CLOCK_MONOTONIC µs).
 */
export function machinePauses(
  samples: readonly MachineCounters[],
  minMs: number,
  fromUs = Number.NEGATIVE_INFINITY,
  toUs = Number.POSITIVE_INFINITY,
): MachinePause[] {
  const pauses: MachinePause[] = [];
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1] as MachineCounters;
    const b = samples[i] as MachineCounters;
    if (a.monotonicUs < fromUs || b.monotonicUs > toUs || b.wallMs === undefined) continue;
    const jumpMs = pausedBetween(a, b);
    if (jumpMs !== undefined && Math.abs(jumpMs) >= minMs)
      pauses.push({ resumedAtMs: b.wallMs, monotonicUs: b.monotonicUs, jumpMs });
  }
  return pauses;
}

/** Samples the machine's counters every `intervalMs` until stopped. */
export class MachineSampler {
  readonly #samples: MachineCounters[] = [];
  readonly #timer: NodeJS.Timeout;
  #stopped = false;

  constructor(
    intervalMs = 100,
    private readonly read: () => MachineCounters = readMachineCounters,
  ) {
    this.#samples.push(read());
    this.#timer = setInterval(() => this.#samples.push(this.read()), intervalMs);
    // The bench ends when its work does, not when this stops.
    this.#timer.unref();
  }

  /** Takes a last sample, so a stall that ended just now is bracketed, and stops. Idempotent. */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#samples.push(this.read());
  }

  /** What the machine did over [fromUs, toUs] (CLOCK_MONOTONIC µs); undefined outside the sampled time. */
  during(fromUs: number, toUs: number): MachineDuring | undefined {
    return machineDuring(this.#samples, fromUs, toUs);
  }

  /** The wall clock's jumps of at least `minMs` between samples within [fromUs, toUs] (CLOCK_MONOTONIC µs). */
  pauses(minMs: number, fromUs?: number, toUs?: number): MachinePause[] {
    return machinePauses(this.#samples, minMs, fromUs, toUs);
  }
}

/** Pauses as prose: "none", or each one's length and when the machine ran again. */
export function describeMachinePauses(pauses: readonly MachinePause[]): string {
  if (pauses.length === 0) return 'none';
  return pauses
    .map((p) => {
      const at = new Date(p.resumedAtMs).toISOString().slice(11, 19);
      return p.jumpMs > 0
        ? `${(p.jumpMs / 1000).toFixed(1)} s paused, resumed at ${at}`
        : `wall clock set back ${(-p.jumpMs / 1000).toFixed(1)} s at ${at}`;
    })
    .join('; ');
}

/**
 * Below this, a difference between the wall and monotonic clocks over a window is the two reads' own skew and NTP's
 * slewing (at most 0.05%), not a pause.
 */
const PAUSE_NOISE_MS = 20;

/** One MachineDuring as prose for a table cell, counters the kernel did not give left out. */
export function describeMachineDuring(d: MachineDuring): string {
  const parts = [
    d.pausedMs === undefined || Math.abs(d.pausedMs) < PAUSE_NOISE_MS
      ? undefined
      : `wall clock ahead of the monotonic one by ${d.pausedMs} ms (the VM paused)`,
    d.stealMs === undefined ? undefined : `steal ${d.stealMs} ms`,
    d.memoryFullMs === undefined ? undefined : `memory full ${d.memoryFullMs} ms`,
    d.memorySomeMs === undefined ? undefined : `memory some ${d.memorySomeMs} ms`,
    d.ioFullMs === undefined ? undefined : `I/O full ${d.ioFullMs} ms`,
    d.iowaitMs === undefined ? undefined : `iowait ${d.iowaitMs} ms`,
    d.majorFaults === undefined ? undefined : `${d.majorFaults} major faults machine-wide`,
  ].filter((p) => p !== undefined);
  return `over the ${d.coveredMs} ms the samples bracket: ${parts.join(', ')}`;
}
