// What the host's API server and etcd were doing while a readiness floor was measured: the 100k runs saw the
// same paged LIST take twice as long ten minutes after the first propagation (178 s, then 360 s), and a floor
// alone cannot say whether the API server was short of CPU, collecting garbage at its GOMEMLIMIT, or waiting on
// etcd. CPU and resident set come from /proc; the API server's Go heap and GC count from its /metrics.
import { metricValue } from '../manager/manager-process.js';
import { rssBytes } from '../soak/rss.js';
import { cpuShare, readProcessCpu, roundToTick } from './process-cpu.js';

/** The name the API server's figures go under in a ServerLoad. */
export const APISERVER = 'kube-apiserver';

export interface ServerLoad {
  readonly durationMs: number;
  /** CPU seconds each server (by name) used meanwhile; absent for one that was gone. */
  readonly cpuSeconds: Readonly<Record<string, number>>;
  /** Each one's resident set at the end. */
  readonly rssBytes: Readonly<Record<string, number>>;
  /** The API server's Go heap in use at the end (go_memstats_heap_inuse_bytes). */
  readonly apiserverHeapInuseBytes?: number | undefined;
  /** Garbage collections the API server's Go runtime ran meanwhile (go_gc_duration_seconds_count). */
  readonly apiserverGcs?: number | undefined;
}

/** One sample of a metric, or undefined when the exposition has no such line. */
function sample(text: string | undefined, name: string): number | undefined {
  if (text === undefined || !new RegExp(`^${name}[ {]`, 'm').test(text)) return undefined;
  return metricValue(text, name);
}

export interface MeasuredApiserver {
  readonly pid: number;
  /** Its /metrics text, or undefined when that failed (the heap and GC figures are then left out). */
  readonly metrics: () => Promise<string | undefined>;
}

/** Runs `fn` and says what the API server and the `others` (name → pid, e.g. etcd) did meanwhile. */
export async function measureServers<T>(
  apiserver: MeasuredApiserver,
  others: Readonly<Record<string, number>>,
  fn: () => Promise<T>,
): Promise<{ readonly result: T; readonly load: ServerLoad }> {
  const servers: Record<string, number> = { [APISERVER]: apiserver.pid, ...others };
  const startedAt = Date.now();
  const cpuBefore = Object.entries(servers).map(([name, pid]) => [name, readProcessCpu(pid)] as const);
  const gcsBefore = sample(await apiserver.metrics(), 'go_gc_duration_seconds_count');
  const result = await fn();
  const durationMs = Date.now() - startedAt;
  const metricsAfter = await apiserver.metrics();
  const gcsAfter = sample(metricsAfter, 'go_gc_duration_seconds_count');
  const cpuSeconds: Record<string, number> = {};
  const rss: Record<string, number> = {};
  for (const [name, before] of cpuBefore) {
    const pid = servers[name]!;
    const after = readProcessCpu(pid);
    if (before && after) cpuSeconds[name] = roundToTick(after.ownSeconds - before.ownSeconds);
    const bytes = rssBytes(pid);
    if (bytes !== undefined) rss[name] = bytes;
  }
  return {
    result,
    load: {
      durationMs,
      cpuSeconds,
      rssBytes: rss,
      apiserverHeapInuseBytes: sample(metricsAfter, 'go_memstats_heap_inuse_bytes'),
      apiserverGcs: gcsBefore !== undefined && gcsAfter !== undefined ? gcsAfter - gcsBefore : undefined,
    },
  };
}

/** "kube-apiserver 410.2 CPU-s (57% of 2 cores), RSS 7.10 GiB, Go heap in use 5.80 GiB, 1204 GCs; etcd ..." */
export function describeServerLoad(load: ServerLoad, cpus: number): string {
  const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(2)} GiB`;
  const names = [...new Set([...Object.keys(load.cpuSeconds), ...Object.keys(load.rssBytes)])];
  return names
    .map((name) => {
      const parts: string[] = [];
      const cpu = load.cpuSeconds[name];
      if (cpu !== undefined) {
        const share = cpuShare(cpu, load.durationMs, cpus);
        parts.push(`${cpu.toFixed(1)} CPU-s (${Math.round(share * 100)}% of ${cpus} cores)`);
      }
      const rss = load.rssBytes[name];
      if (rss !== undefined) parts.push(`RSS ${gib(rss)}`);
      if (name === APISERVER && load.apiserverHeapInuseBytes !== undefined)
        parts.push(`Go heap in use ${gib(load.apiserverHeapInuseBytes)}`);
      if (name === APISERVER && load.apiserverGcs !== undefined) parts.push(`${load.apiserverGcs} GCs`);
      return `${name} ${parts.join(', ')}`;
    })
    .join('; ');
}
