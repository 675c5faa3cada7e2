// CPU time of processes on this machine, from /proc/<pid>/stat: what share of the machine each of the processes
// that share its cores (the host kube-apiserver, etcd, the manager) took during a phase of a benchmark.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** /proc reports CPU times in USER_HZ clock ticks, which Linux fixes at 100 a second for user space. */
export const TICKS_PER_SECOND = 100;

export interface ProcessCpu {
  /** utime + stime: the process's own CPU time, in seconds. */
  readonly ownSeconds: number;
  /** cutime + cstime: the CPU time of its children that have exited and been waited for, in seconds. */
  readonly reapedChildrenSeconds: number;
}

export class ProcStatFormatError extends Error {
  constructor(text: string) {
    super(`not a /proc/<pid>/stat line (Linux only): ${JSON.stringify(text.slice(0, 120))}`);
    this.name = 'ProcStatFormatError';
  }
}

/** Reads the CPU times out of the text of /proc/<pid>/stat. */
export function parseProcStat(text: string): ProcessCpu {
  // Field 2, the command name in parentheses, may itself hold spaces and parentheses: count from the last ')'.
  const close = text.lastIndexOf(')');
  if (close < 0) throw new ProcStatFormatError(text);
  const fields = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  // fields[0] is field 3 (state); utime, stime, cutime and cstime are fields 14 to 17.
  const ticks = (field: number): number => {
    const value = Number(fields[field - 3]);
    if (!Number.isInteger(value) || value < 0) throw new ProcStatFormatError(text);
    return value;
  };
  return {
    ownSeconds: (ticks(14) + ticks(15)) / TICKS_PER_SECOND,
    reapedChildrenSeconds: (ticks(16) + ticks(17)) / TICKS_PER_SECOND,
  };
}

/** The CPU times of a running process (or this one), or undefined once it is gone. */
export function readProcessCpu(pid: number | 'self'): ProcessCpu | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  return parseProcStat(text);
}

/** CPU seconds used over `durationMs` as a share (0 to 1) of a machine with `cpus` cores. */
export function cpuShare(cpuSeconds: number, durationMs: number, cpus: number): number {
  return durationMs > 0 && cpus > 0 ? cpuSeconds / ((durationMs / 1000) * cpus) : 0;
}

/** To the clock tick: subtracting tick counts in seconds leaves float dust (12.340000000000003). */
export function roundToTick(seconds: number): number {
  return Math.round(seconds * TICKS_PER_SECOND) / TICKS_PER_SECOND;
}

/**
 * The fields of /proc/stat's aggregate "cpu" line (its first): cpu user nice system idle iowait irq softirq steal
 * ..., in clock ticks; undefined when the text has no such line with at least the eight up to steal.
 */
export function procStatCpuFields(text: string): readonly string[] | undefined {
  const fields = (text.split('\n', 1)[0] ?? '').trim().split(/\s+/);
  return fields[0] === 'cpu' && fields.length >= 9 ? fields : undefined;
}

/**
 * CPU seconds every process on the machine spent (user, nice, system, irq, softirq: not idle, iowait or steal),
 * from the aggregate "cpu" line of /proc/stat's text; undefined when there is no such line.
 */
export function parseMachineBusySeconds(text: string): number | undefined {
  const fields = procStatCpuFields(text);
  if (fields === undefined) return undefined;
  const ticks = [1, 2, 3, 6, 7].map((i) => Number(fields[i]));
  if (!ticks.every((t) => Number.isInteger(t) && t >= 0)) return undefined;
  return ticks.reduce((a, b) => a + b, 0) / TICKS_PER_SECOND;
}

function readMachineBusySeconds(): number | undefined {
  try {
    return parseMachineBusySeconds(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return undefined;
  }
}

/** What cpuMeter names the whole machine's busy time, beside the processes it was given. */
export const EVERY_PROCESS = 'every process';

export interface CpuUse {
  /** The machine's cores (os.availableParallelism()) the shares divide by. */
  readonly cpus: number;
  /**
   * CPU seconds each process used in the interval, by name, and under EVERY_PROCESS the machine's busy time (all
   * processes, measured or not, the kernel's interrupts included), so what the named ones leave is visible.
   */
  readonly seconds: Readonly<Record<string, number>>;
  /** Each one's share of the machine over the interval: seconds / (interval × cpus). */
  readonly share: Readonly<Record<string, number>>;
}

/**
 * Starts counting CPU time: of the `running` processes (name → pid), and of a child of this process started from
 * now on and perhaps replaced meanwhile (the manager, which a benchmark starts again when it exits), which stop()
 * names: the last one's own time plus that of this process's children that exited in between (so no other child
 * of this process may exit meanwhile). A running process gone by stop() is left out.
 */
export function cpuMeter(running: Readonly<Record<string, number>>): {
  stop(child: { readonly name: string; readonly pid: number }): CpuUse;
} {
  const startedAt = Date.now();
  const before = new Map(Object.entries(running).map(([name, pid]) => [name, readProcessCpu(pid)]));
  const reapedBefore = readProcessCpu('self')?.reapedChildrenSeconds ?? 0;
  const busyBefore = readMachineBusySeconds();
  return {
    stop: (child) => {
      const durationMs = Date.now() - startedAt;
      const seconds: Record<string, number> = {};
      for (const [name, pid] of Object.entries(running)) {
        const start = before.get(name);
        const end = readProcessCpu(pid);
        if (start && end) seconds[name] = roundToTick(end.ownSeconds - start.ownSeconds);
      }
      const reaped = (readProcessCpu('self')?.reapedChildrenSeconds ?? 0) - reapedBefore;
      seconds[child.name] = roundToTick((readProcessCpu(child.pid)?.ownSeconds ?? 0) + reaped);
      const busyAfter = readMachineBusySeconds();
      if (busyBefore !== undefined && busyAfter !== undefined)
        seconds[EVERY_PROCESS] = roundToTick(busyAfter - busyBefore);
      const cpus = availableParallelism();
      const share = Object.fromEntries(
        // Four decimals: a hundredth of a percent is finer than the clock ticks the seconds come in.
        Object.entries(seconds).map(([name, s]) => [
          name,
          Math.round(cpuShare(s, durationMs, cpus) * 10_000) / 10_000,
        ]),
      );
      return { cpus, seconds, share };
    },
  };
}
