// The restart benchmark's rows as markdown: the table, and each restart's two change paths.
import type { EventLoopStallSplit } from './event-loop-stall.js';
import { describeMachineDuring, describeMachinePauses } from './machine-pressure.js';
import { describeRelists, type RelistCount } from './manager-relists.js';
import type { RestartRow } from './scenario.js';
import { describeServerLoad, type ServerLoad } from './server-load.js';

export type PlainRestartRow = Omit<RestartRow, 'detail'>;

/** The row's own node flags, after its strategy, so two rows of one strategy with different flags tell apart. */
function strategyName(r: PlainRestartRow): string {
  const flags = r.nodeArgs ?? [];
  return flags.length === 0 ? r.strategy : `${r.strategy} (${flags.map((f) => `\`${f}\``).join(' ')})`;
}

function restartName(r: PlainRestartRow): string {
  return `${strategyName(r)} ${r.restart === 'failover' ? 'fail-over' : r.restart}`;
}

/**
 * The longest event-loop block: the lag figure as before (tables of different dates compare), then the worst
 * stall's split from the manager's stall recorder, where the row has one.
 */
function stallSplit(stall: EventLoopStallSplit): string {
  return stall.onCpuMs === undefined || stall.offCpuMs === undefined
    ? `GC ${stall.gcMs}, on/off CPU not measured`
    : `on CPU ${stall.onCpuMs}, GC ${stall.gcMs}, off CPU ${stall.offCpuMs}${stall.runQueueMs === undefined ? '' : ` of which waiting for a core ${stall.runQueueMs}`}${stall.otherThreadsCpuMs === undefined ? '' : `; other threads on CPU ${stall.otherThreadsCpuMs}`}`;
}

/** After the drained queues, until the bench stopped the manager: a worse stall with its split, or that none came. */
function untilStopped(r: PlainRestartRow, sinceStartMs: number): string {
  const later = r.eventLoopStallUntilStopped;
  if (later === undefined) return '';
  if (later.totalMs <= sinceStartMs) return '; none worse until stopped';
  return `; worse later, before it was stopped: ${later.totalMs} ms: ${stallSplit(later)}`;
}

function eventLoopBlock(r: PlainRestartRow): string {
  const stall = r.eventLoopStall;
  if (stall === undefined) return `${r.peakEventLoopDelayMs} ms`;
  // The recorder starts before the modules load, so its worst stall may be the start-up's, which the lag
  // figure (measured from when the metrics are registered) does not include: both are given.
  return `${r.peakEventLoopDelayMs} ms (worst stall since start ${stall.totalMs} ms: ${stallSplit(stall)}${untilStopped(r, stall.totalMs)})`;
}

/**
 * A fail-over's change waits for the dead leader's Lease to expire (15 s by default) before anything may act on
 * it; the cell gives the time after the standby took the Lease, and the whole time from the kill beside it.
 */
function changePropagated(r: PlainRestartRow, s: (ms: number) => string): string {
  const leader = r.restart === 'failover' ? r.changePath.leader : undefined;
  if (leader === undefined) return s(r.changePropagatedMs);
  return `${s(r.changePropagatedMs - leader)} after the Lease (${s(r.changePropagatedMs)} from the kill)`;
}

/** /readyz over the floor measured just before the restart, with that floor; a dash for rows without one. */
function overFloorBefore(r: PlainRestartRow): string {
  if (r.floorBeforeMs === undefined) return '–';
  return `${(r.readyzMs / Math.max(1, r.floorBeforeMs)).toFixed(2)}x (${(r.floorBeforeMs / 1000).toFixed(2)} s)`;
}

/**
 * The table; "/readyz ÷ floor" divides by `floorMs`, the soonest any client could hold every cached host object,
 * and "÷ floor just before" by the row's own floor, measured just before that restart.
 */
export function restartTable(rows: readonly PlainRestartRow[], floorMs: number): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const lines = [
    '| strategy | restart | workloads | direct reads | writes after restart | /livez | /readyz | /readyz ÷ floor | ÷ floor just before | first useful write | early change propagated | first reconcile | change propagated | peak RSS | peak heap | longest event-loop block |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${strategyName(r)} | ${r.restart === 'failover' ? 'fail-over' : r.restart} | ${r.workloads} | ${r.directReads} | ${r.writesAfterRestart} | ${s(r.livezMs)} | ${s(r.readyzMs)} | ${(r.readyzMs / Math.max(1, floorMs)).toFixed(2)}x | ${overFloorBefore(r)} | ${s(r.firstUsefulWriteMs)} | ${s(r.earlyChangePropagatedMs)} | ${s(r.firstReconcileMs)} | ${changePropagated(r, s)} | ${Math.round(r.peakRssBytes / 2 ** 20)} MiB | ${Math.round(r.peakHeapBytes / 2 ** 20)} MiB | ${eventLoopBlock(r)} |`,
    ),
  ];
  return lines.join('\n');
}

/** Each restart's two changes: when each stage first wrote for them, in ms after the change. */
export function changePathList(rows: readonly PlainRestartRow[]): string {
  const stages = (path: Readonly<Record<string, number>>) =>
    Object.entries(path)
      .map(([stage, ms]) => `${stage} ${ms}`)
      .join(', ');
  return [
    'Path of the changes made around each restart (ms after the change when each stage first wrote for it). Early: made once the new process served /livez, before its caches synced (fail-over: as soon as the leader was killed), ms after the restart given too; late: made once /readyz answered:',
    '',
    ...rows.map(
      (r) =>
        `- ${restartName(r)}: early, made at ${r.earlyChangeMs} after the restart: ${stages(r.earlyChangePath)}; late: ${stages(r.changePath)}; reached every member ${r.changePropagatedMs}`,
    ),
  ].join('\n');
}

/**
 * Each restart's stalls of 200 ms or more with what the machine did meanwhile: a stall off CPU and not waiting for
 * a core is not work of the manager's, and steal, memory pressure or page-ins across it say whose it was.
 */
export function longStallList(rows: readonly PlainRestartRow[]): string {
  const looked = rows.filter((r) => r.longStalls !== undefined);
  if (looked.length === 0) return '';
  // A VM pause stops CLOCK_MONOTONIC, so it is no stall; it shows as the wall clock jumping ahead, and every
  // wall-clock figure of the row that spans it is longer by as much.
  const paused = (r: PlainRestartRow) =>
    r.machinePauses === undefined
      ? ''
      : `. VM paused during the measurement: ${describeMachinePauses(r.machinePauses)}`;
  return [
    "Event-loop stalls of 200 ms or more in each restart's manager (its whole life, start-up included), with the manager's own split and page-ins and what the whole machine did across the stall (counters sampled every 100 ms, so the window is a little wider than the stall); then the VM's pauses during the row's measurement (the wall clock jumping ahead of CLOCK_MONOTONIC, which stops while the VM is paused: a pause is not a stall, but it lengthens every wall-clock figure of the row by its length):",
    '',
    ...looked.map((r) => {
      const stalls = r.longStalls ?? [];
      if (stalls.length === 0) return `- ${restartName(r)}: none${paused(r)}`;
      const one = stalls.map((s) => {
        const when = `${new Date(s.time).toISOString().slice(11, 23)}${s.afterProbes ? '' : ', before the probes'}`;
        const own = `${stallSplit(s)}${s.majorFaults === undefined ? '' : `; ${s.majorFaults} major faults of its own`}`;
        const machine = s.machine === undefined ? 'machine not sampled' : describeMachineDuring(s.machine);
        return `${s.totalMs} ms at ${when} (${own}; ${machine})`;
      });
      return `- ${restartName(r)}: ${one.join('; ')}${paused(r)}`;
    }),
  ].join('\n');
}

/**
 * What the host's API server and etcd did during each floor measured just before a restart, after `runFloor`
 * (the run's own floor, measured once after the first propagation), so a floor that doubled says why.
 */
// Only where the bench read them: rows from before the count existed say nothing.
function relistNote(relists: readonly RelistCount[] | undefined): string {
  return relists === undefined ? '' : `; the idle manager relisted meanwhile: ${describeRelists(relists)}`;
}

export function serverLoadList(
  rows: readonly PlainRestartRow[],
  cpus: number,
  runFloor?: ServerLoad,
  runFloorRelists?: readonly RelistCount[],
): string {
  const looked = rows.filter((r) => r.serversDuringFloorBefore !== undefined);
  if (looked.length === 0 && runFloor === undefined) return '';
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return [
    "The servers while each floor was measured (CPU from /proc over the floor's time, resident set and the API server's Go heap at its end, the API server's garbage collections meanwhile from its /metrics):",
    '',
    ...(runFloor === undefined
      ? []
      : [
          `- the run's floor (${s(runFloor.durationMs)}): ${describeServerLoad(runFloor, cpus)}${relistNote(runFloorRelists)}`,
        ]),
    ...looked.map(
      (r) =>
        `- just before ${restartName(r)} (${s(r.serversDuringFloorBefore!.durationMs)}): ${describeServerLoad(r.serversDuringFloorBefore!, cpus)}${relistNote(r.managerRelistsDuringFloorBefore)}`,
    ),
  ].join('\n');
}
