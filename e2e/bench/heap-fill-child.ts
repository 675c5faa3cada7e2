// The informer process of the heap-fill benchmark, started with the Node/V8 flags under test: it syncs informers
// for the manager's four big kinds (three on the host, one on the member) with the manager's defaults (WatchList,
// or a paged LIST where the server refuses it), then lives through the servers' churn and a quiet time, recording every event-loop stall of 100 ms or
// more (the manager's own stall recorder) and every full GC, each with the phase it fell in.
//
// Usage (the parent runs it, with an IPC channel): node [flags] --conditions=@warmstart/source --import tsx
//   heap-fill-child.ts <objects per kind> <churn s> <quiet s> <kubeconfig per kind, in servedKinds' order>
import { readFileSync } from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { KubeConfig } from '@kubernetes/client-node';
import { InformerManager } from '@warmstart/informer-cache';
import { EventLoopStallRecorder } from '@warmstart/sync-gate';
import {
  type ChildMessage,
  type HeapFillResult,
  type MajorGc,
  type Phase,
  type PhaseStall,
  servedKinds,
} from './heap-fill-protocol.js';
import { stderrLogger } from './stderr-logger.js';

const [perKindArg, churnArg, quietArg, ...kubeconfigs] = process.argv.slice(2);
const perKind = Number(perKindArg);
const churnS = Number(churnArg);
const quietS = Number(quietArg);
if (!(perKind > 0) || !(churnS >= 0) || !(quietS >= 0) || kubeconfigs.length !== servedKinds.length)
  throw new Error(
    `usage: heap-fill-child.ts <per kind> <churn s> <quiet s> <kubeconfig of each of ${servedKinds.map((k) => k.kind).join(', ')}>`,
  );

let phase: Phase = 'fill';
const t0 = performance.now();
const atS = (ms: number) => Math.round((ms - t0) / 100) / 10;

const stalls: PhaseStall[] = [];
const recorder = new EventLoopStallRecorder({
  reportMs: 100,
  onStall: (s) =>
    stalls.push({
      phase,
      atS: atS(s.endMs),
      gapMs: Math.round(s.gapMs),
      onCpuMs: s.onCpuMs === undefined ? undefined : Math.round(s.onCpuMs),
      gcMs: Math.round(s.gcMs),
      runQueueMs: s.runQueueMs === undefined ? undefined : Math.round(s.runQueueMs),
    }),
});

const majorGcs: MajorGc[] = [];
let gcPauseSumMs = 0;
// perf_hooks reports kind 4 (NODE_PERFORMANCE_GC_MAJOR) for mark-compact, the GCs that mark the whole heap.
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcPauseSumMs += e.duration;
    const detail = (e as { readonly detail?: { readonly kind?: number; readonly flags?: number } }).detail;
    if (detail?.kind === 4)
      majorGcs.push({
        phase,
        atS: atS(e.startTime),
        pauseMs: Math.round(e.duration),
        flags: detail.flags ?? 0,
      });
  }
}).observe({ entryTypes: ['gc'] });

let rssPeakBytes = 0;
const rssSampler = setInterval(() => {
  rssPeakBytes = Math.max(rssPeakBytes, process.memoryUsage.rss());
}, 1000);

function managerFor(path: string): InformerManager {
  const kc = new KubeConfig();
  kc.loadFromString(readFileSync(path, 'utf8'));
  return InformerManager.fromKubeConfig(kc, {
    ...(process.env.BENCH_LOG ? { logger: stderrLogger } : {}),
  });
}
// One manager per kind, as each kind has its own server; the manager has one per cluster, which shares nothing
// that matters here (every watch has its own connection either way).
const managers = kubeconfigs.map(managerFor);
const informers = servedKinds.map((k, i) => {
  const manager = managers[i];
  if (manager === undefined) throw new Error(`no kubeconfig for ${k.kind}`);
  return manager.forResource(k.gvr);
});
for (const m of managers) m.start();
await Promise.all(managers.map((m) => m.waitForSync({ timeoutMs: 1_800_000 })));
const fillS = atS(performance.now());
const objects = informers.reduce((n, i) => n + i.store.size, 0);
if (objects !== perKind * servedKinds.length)
  throw new Error(
    `synced ${objects} objects, expected ${perKind * servedKinds.length}: the server was not filled`,
  );

const waitS = (s: number) => new Promise((r) => setTimeout(r, s * 1000));
phase = 'churn';
const send = (message: ChildMessage) => process.send?.(message);
send({ type: 'synced' });
await waitS(churnS);
phase = 'quiet';
await waitS(quietS);

clearInterval(rssSampler);
recorder.close();
const result: HeapFillResult = {
  nodeFlags: process.execArgv.filter(
    (a) => !a.startsWith('--conditions') && a !== '--import' && !a.includes('tsx'),
  ),
  objects,
  fillS,
  stalls,
  majorGcs,
  gcPauseSumMs: Math.round(gcPauseSumMs),
  heapUsedBytes: process.memoryUsage().heapUsed,
  rssPeakBytes: Math.max(rssPeakBytes, process.memoryUsage.rss()),
};
send({ type: 'result', result });
process.exit(0);
