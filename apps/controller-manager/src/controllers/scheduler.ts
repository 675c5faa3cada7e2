// Static placement, as karmada-scheduler computes it for the fields it can decide without capacity estimates:
// filter the Ready clusters by affinity, taints, API enablement and eviction, then assign replicas
// (Duplicated, or Divided by static weights). Pure: cached objects in, spec.clusters out.
import {
  type Cluster,
  type ClusterAffinity,
  ClusterConditionType,
  type Placement,
  type ReplicaSchedulingType,
  type TargetCluster,
} from '@warmstart/api';
import type { Binding } from './binding.js';
import { clusterMatchesAffinity } from './cluster-affinity.js';
import { assignByStaticWeight, assignDuplicated } from './replica-assignment.js';
import { findUntoleratedTaint, formatTaint } from './taint-toleration.js';

/** What the scheduler looks at. Everything comes from caches; nothing here is fetched. */
export interface ScheduleInput {
  /** The binding's spec.placement. Absent means every schedulable cluster, Duplicated. */
  readonly placement: Readonly<Placement> | undefined;
  /** The binding's spec.replicas. 0 or absent: not a workload, every selected cluster gets no replicas field. */
  readonly replicas?: number | undefined;
  /** Every Cluster in the cache; the scheduler filters out the ones that are not Ready or are being deleted. */
  readonly clusters: readonly Readonly<Cluster>[];
  /**
   * The binding's current spec.clusters. A cluster already in it is not dropped for a taint (Karmada leaves
   * that to taint-based eviction), nor for an API-enablement list the cluster reports as incomplete.
   */
  readonly previous?: readonly Readonly<TargetCluster>[] | undefined;
  /** status.schedulerObservingAffinityName: where to start in placement.clusterAffinities. */
  readonly observedAffinityName?: string | undefined;
  /**
   * The resource's apiVersion and kind. When given, a cluster must list it in status.apiEnablements (Karmada's
   * APIEnablement filter). Leave it out when no component fills apiEnablements, or nothing will be scheduled.
   */
  readonly resource?: { readonly apiVersion: string; readonly kind: string } | undefined;
  /** Clusters the binding is being evicted from (spec.gracefulEvictionTasks[].fromCluster). */
  readonly evictingClusters?: readonly string[] | undefined;
  /** The template's UID (spec.resource.uid): Karmada seeds the tie-breaker of a weighted division with it. */
  readonly templateUid?: string | undefined;
}

/** Why nothing was scheduled, in the words of Karmada's Scheduled condition reasons. */
export type ScheduleFailureReason = 'NoClusterFit' | 'SchedulerError';

export interface ScheduleSuccess {
  readonly kind: 'Scheduled';
  /** spec.clusters, sorted by cluster name. */
  readonly clusters: readonly TargetCluster[];
  /** The clusterAffinities term used, when placement.clusterAffinities is set. */
  readonly affinityName?: string;
}

export interface ScheduleFailure {
  readonly kind: 'Unschedulable';
  readonly clusters: readonly [];
  /**
   * NoClusterFit: the placement selects no cluster; spec.clusters must be cleared (Karmada does). SchedulerError:
   * the scheduler could not decide (unsupported placement, no Cluster objects at all); spec.clusters is left
   * as it is so a transient state does not remove workloads.
   */
  readonly reason: ScheduleFailureReason;
  /** For the Scheduled=False condition: what happened and what to do. */
  readonly message: string;
}

export type ScheduleResult = ScheduleSuccess | ScheduleFailure;

/** Options for {@link scheduleBinding}. */
export interface ScheduleBindingOptions {
  /** Apply the APIEnablement filter with the binding's spec.resource (see {@link ScheduleInput.resource}). */
  readonly checkApiEnablements?: boolean;
}

/** {@link schedule} with its input read from a cached binding. */
export function scheduleBinding(
  binding: Readonly<Binding>,
  clusters: readonly Readonly<Cluster>[],
  options: ScheduleBindingOptions = {},
): ScheduleResult {
  const { spec } = binding;
  return schedule({
    placement: spec.placement,
    replicas: spec.replicas,
    clusters,
    previous: spec.clusters,
    observedAffinityName: binding.status?.schedulerObservingAffinityName,
    resource: options.checkApiEnablements
      ? { apiVersion: spec.resource.apiVersion, kind: spec.resource.kind }
      : undefined,
    evictingClusters: spec.gracefulEvictionTasks?.map((t) => t.fromCluster),
    templateUid: spec.resource.uid,
  });
}

/** The replica scheduling type in effect: absent replicaScheduling is Duplicated; a type left out is Divided. */
export function replicaSchedulingTypeOf(placement: Readonly<Placement> | undefined): ReplicaSchedulingType {
  const strategy = placement?.replicaScheduling;
  if (strategy === undefined) return 'Duplicated';
  // The CRD defaults replicaSchedulingType to Divided; objects built in memory may not have been defaulted.
  return strategy.replicaSchedulingType ?? 'Divided';
}

/**
 * Schedule one binding. Deterministic: the same input gives the same output, sorted by cluster name, whatever
 * the order of `clusters`.
 */
export function schedule(input: ScheduleInput): ScheduleResult {
  const replicas = input.replicas ?? 0;
  if (!Number.isSafeInteger(replicas) || replicas < 0) {
    return failure('SchedulerError', `spec.replicas is ${replicas}; it must be a whole number of at least 0`);
  }
  const unsupported = unsupportedPlacement(input.placement, replicas);
  if (unsupported !== undefined) return failure('SchedulerError', unsupported);
  if (input.clusters.length === 0) {
    return failure(
      'SchedulerError',
      'no clusters available to schedule: no Cluster objects exist; join a cluster',
    );
  }

  const clusters = [...input.clusters].sort((a, b) => compareNames(a.metadata.name, b.metadata.name));
  const terms =
    input.placement?.clusterAffinity === undefined ? input.placement?.clusterAffinities : undefined;
  if (terms === undefined || terms.length === 0) {
    return scheduleWithAffinity(input, clusters, replicas, input.placement?.clusterAffinity);
  }

  // Try the terms in order from the one last used; the first that selects a cluster wins. Karmada does not go
  // back to earlier terms, so a binding that overflowed stays where it is until rescheduled.
  const start = Math.max(
    0,
    terms.findIndex((t) => t.affinityName === input.observedAffinityName),
  );
  let firstFailure: ScheduleFailure | undefined;
  for (let i = start; i < terms.length; i++) {
    const term = terms[i]!;
    const result = scheduleWithAffinity(input, clusters, replicas, term);
    if (result.kind === 'Scheduled') return { ...result, affinityName: term.affinityName };
    firstFailure ??= result;
  }
  return firstFailure!;
}

function scheduleWithAffinity(
  input: ScheduleInput,
  clusters: readonly Readonly<Cluster>[],
  replicas: number,
  affinity: Readonly<ClusterAffinity> | undefined,
): ScheduleResult {
  const previous = new Set((input.previous ?? []).map((t) => t.name));
  const evicting = new Set(input.evictingClusters ?? []);
  const rejections = new Map<string, number>();
  const reject = (reason: string): void => {
    rejections.set(reason, (rejections.get(reason) ?? 0) + 1);
  };

  const candidates: Readonly<Cluster>[] = [];
  for (const cluster of clusters) {
    const name = cluster.metadata.name ?? '';
    if (cluster.metadata.deletionTimestamp !== undefined) {
      reject('cluster(s) were being deleted');
    } else if (!isClusterReady(cluster)) {
      reject('cluster(s) were not Ready');
    } else if (affinity !== undefined && !clusterMatchesAffinity(cluster, affinity)) {
      reject('cluster(s) did not match the placement cluster affinity constraint');
    } else if (input.resource !== undefined && !apiAvailable(cluster, input.resource, previous.has(name))) {
      reject(`cluster(s) did not have the API resource ${input.resource.apiVersion}/${input.resource.kind}`);
    } else if (evicting.has(name)) {
      reject('cluster(s) were in the process of eviction');
    } else {
      const taint = previous.has(name)
        ? undefined
        : findUntoleratedTaint(cluster.spec.taints, input.placement?.clusterTolerations);
      if (taint !== undefined) reject(`cluster(s) had untolerated taint {${formatTaint(taint)}}`);
      else candidates.push(cluster);
    }
  }

  if (candidates.length === 0) {
    const reasons = [...rejections].map(([reason, count]) => `${count} ${reason}`).sort();
    return failure('NoClusterFit', `0/${clusters.length} clusters are available: ${reasons.join(', ')}.`);
  }
  return { kind: 'Scheduled', clusters: assign(input, candidates, replicas) };
}

function assign(
  input: ScheduleInput,
  candidates: readonly Readonly<Cluster>[],
  replicas: number,
): TargetCluster[] {
  let targets: TargetCluster[];
  if (replicas === 0) {
    // Not a workload (or scaled to zero): every selected cluster, without a replicas field.
    targets = candidates.map((c) => ({ name: c.metadata.name ?? '' }));
  } else if (replicaSchedulingTypeOf(input.placement) === 'Duplicated') {
    targets = assignDuplicated(candidates, replicas);
  } else {
    const weightList = input.placement?.replicaScheduling?.weightPreference?.staticWeightList;
    targets = assignByStaticWeight(candidates, weightList, replicas, input.previous, input.templateUid);
  }
  return targets.sort((a, b) => compareNames(a.name, b.name));
}

// Placement features that need capacity estimates or other bindings: we say so rather than guess.
function unsupportedPlacement(
  placement: Readonly<Placement> | undefined,
  replicas: number,
): string | undefined {
  if (placement === undefined) return undefined;
  if ((placement.spreadConstraints?.length ?? 0) > 0) {
    return 'placement.spreadConstraints is not supported by the static scheduler; remove it from the policy, or run karmada-scheduler for this binding';
  }
  if (replicas === 0 || replicaSchedulingTypeOf(placement) !== 'Divided') return undefined;
  const strategy = placement.replicaScheduling;
  if (strategy?.replicaDivisionPreference === 'Aggregated') {
    return 'replicaDivisionPreference Aggregated needs cluster capacity estimates, which the static scheduler does not have; use Weighted (optionally with a staticWeightList) or Duplicated';
  }
  if (strategy?.weightPreference?.dynamicWeight !== undefined) {
    return 'weightPreference.dynamicWeight needs cluster capacity estimates, which the static scheduler does not have; use a staticWeightList instead';
  }
  return undefined;
}

/** A cluster is schedulable when its Ready condition is True (and it is not being deleted). */
export function isClusterReady(cluster: Readonly<Cluster>): boolean {
  return cluster.status?.conditions?.find((c) => c.type === ClusterConditionType.Ready)?.status === 'True';
}

// Karmada keeps an already-scheduled cluster whose API list is not complete, rather than trust a partial list.
function apiAvailable(
  cluster: Readonly<Cluster>,
  resource: { readonly apiVersion: string; readonly kind: string },
  alreadyScheduled: boolean,
): boolean {
  const enabled = (cluster.status?.apiEnablements ?? []).some(
    (e) =>
      e.groupVersion === resource.apiVersion && (e.resources ?? []).some((r) => r.kind === resource.kind),
  );
  if (enabled) return true;
  const complete =
    cluster.status?.conditions?.find((c) => c.type === ClusterConditionType.CompleteAPIEnablements)
      ?.status === 'True';
  return alreadyScheduled && !complete;
}

function failure(reason: ScheduleFailureReason, message: string): ScheduleFailure {
  return { kind: 'Unschedulable', clusters: [], reason, message };
}

function compareNames(a: string | undefined, b: string | undefined): number {
  const x = a ?? '';
  const y = b ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}
