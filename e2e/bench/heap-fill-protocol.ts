// What the heap-fill benchmark's parent, its API-server process and its informer process say to each other.
import type { GroupVersionResource } from '@warmstart/informer-cache';

export type HeapFillKind = 'template' | 'rb' | 'work' | 'member';

/**
 * The four objects the manager caches per workload with one member, by the cluster that serves them and by how the
 * 100k restart run's kube-apiserver lists them: WatchList where its watch cache is on, paged LIST where the run
 * turns it off (Works and ResourceBindings, `--watch-cache-sizes=...#0`).
 */
export const servedKinds: readonly {
  readonly kind: HeapFillKind;
  readonly cluster: 'host' | 'member';
  readonly gvr: GroupVersionResource;
  readonly watchCache: boolean;
}[] = [
  {
    kind: 'template',
    watchCache: true,
    cluster: 'host',
    gvr: { group: 'apps', version: 'v1', resource: 'deployments', namespaced: true, kind: 'Deployment' },
  },
  {
    kind: 'rb',
    watchCache: false,
    cluster: 'host',
    gvr: {
      group: 'work.karmada.io',
      version: 'v1alpha2',
      resource: 'resourcebindings',
      namespaced: true,
      kind: 'ResourceBinding',
    },
  },
  {
    kind: 'work',
    watchCache: false,
    cluster: 'host',
    gvr: { group: 'work.karmada.io', version: 'v1alpha1', resource: 'works', namespaced: true, kind: 'Work' },
  },
  {
    kind: 'member',
    watchCache: true,
    cluster: 'member',
    gvr: { group: 'apps', version: 'v1', resource: 'deployments', namespaced: true, kind: 'Deployment' },
  },
];

export type ServerMessage = { readonly type: 'ready'; readonly kubeconfig: string };

export type ChildMessage =
  | { readonly type: 'synced' }
  | { readonly type: 'result'; readonly result: HeapFillResult };

export type ParentMessage =
  | { readonly type: 'churn'; readonly seconds: number; readonly perSecond: number }
  | { readonly type: 'stop' };

/** One event-loop stall of 100 ms or more in the informer process, with the phase it fell in. */
export interface PhaseStall {
  readonly phase: Phase;
  /** Seconds since the informers started. */
  readonly atS: number;
  readonly gapMs: number;
  readonly onCpuMs: number | undefined;
  readonly gcMs: number;
  readonly runQueueMs: number | undefined;
}

/** fill: until every cache synced; churn: while the servers replace objects; quiet: after, nothing happening. */
export type Phase = 'fill' | 'churn' | 'quiet';

/** A full (mark-compact) GC: when, how long its pause, and V8's reason flags as perf_hooks reports them. */
export interface MajorGc {
  readonly phase: Phase;
  readonly atS: number;
  readonly pauseMs: number;
  readonly flags: number;
}

/** What the informer process prints, one JSON line, when its quiet phase ends. */
export interface HeapFillResult {
  readonly nodeFlags: readonly string[];
  readonly objects: number;
  readonly fillS: number;
  readonly stalls: readonly PhaseStall[];
  readonly majorGcs: readonly MajorGc[];
  /** Sum of every GC pause, minor ones included, in ms. */
  readonly gcPauseSumMs: number;
  readonly heapUsedBytes: number;
  readonly rssPeakBytes: number;
}
