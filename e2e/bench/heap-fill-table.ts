// The heap-fill benchmark's results as one markdown table, a row per set of Node/V8 flags.
import type { HeapFillResult, Phase } from './heap-fill-protocol.js';

const PHASES: readonly Phase[] = ['fill', 'churn', 'quiet'];

function worstStall(r: HeapFillResult): string {
  const worst = r.stalls.reduce<HeapFillResult['stalls'][number] | undefined>(
    (w, s) => (w === undefined || s.gapMs > w.gapMs ? s : w),
    undefined,
  );
  if (worst === undefined) return 'none of 100 ms or more';
  const split =
    worst.onCpuMs === undefined ? `GC ${worst.gcMs}` : `on CPU ${worst.onCpuMs}, GC ${worst.gcMs}`;
  const queue = worst.runQueueMs === undefined ? '' : `, waiting for a core ${worst.runQueueMs}`;
  return `${worst.gapMs} ms in ${worst.phase} at ${worst.atS} s (${split}${queue})`;
}

/** Stalls of `ms` or more per phase, e.g. `3 / 0 / 1`. */
function atLeast(r: HeapFillResult, ms: number): string {
  return PHASES.map((p) => r.stalls.filter((s) => s.phase === p && s.gapMs >= ms).length).join(' / ');
}

function majorGcs(r: HeapFillResult): string {
  if (r.majorGcs.length === 0) return 'none';
  return r.majorGcs.map((g) => `${g.phase} ${g.atS} s: ${g.pauseMs} ms`).join('; ');
}

export function heapFillTable(results: readonly HeapFillResult[]): string {
  const mib = (b: number) => `${Math.round(b / 2 ** 20)} MiB`;
  return [
    '| Node flags | objects | fill | worst stall | stalls ≥ 100 ms (fill / churn / quiet) | of them ≥ 200 ms | full GCs (phase, s since start: pause) | GC pauses in all | heap after | peak RSS |',
    '|---|---:|---:|---|---:|---:|---|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.nodeFlags.map((f) => `\`${f}\``).join(' ')} | ${r.objects} | ${r.fillS.toFixed(1)} s | ${worstStall(r)} | ${atLeast(r, 100)} | ${atLeast(r, 200)} | ${majorGcs(r)} | ${(r.gcPauseSumMs / 1000).toFixed(1)} s | ${mib(r.heapUsedBytes)} | ${mib(r.rssPeakBytes)} |`,
    ),
  ].join('\n');
}
