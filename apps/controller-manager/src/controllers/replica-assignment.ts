// How a workload's replicas are spread over the clusters that passed the filters: Karmada's Duplicated and
// static-weight Divided strategies (pkg/scheduler/core/assignment.go, division_algorithm.go, util/helper Dispenser).
import type { Cluster, StaticClusterWeight, TargetCluster } from '@warmstart/api';
import { clusterMatchesAffinity } from './cluster-affinity.js';
import { allocateWebsterSeats, tieBreakerByUid } from './webster.js';

/** Every candidate runs all the replicas. */
export function assignDuplicated(
  candidates: readonly Readonly<Cluster>[],
  replicas: number,
): TargetCluster[] {
  return candidates.map((c) => ({ name: c.metadata.name ?? '', replicas }));
}

/**
 * Divide `replicas` by static weights, as Karmada's assignByStaticWeightStrategy does (since v1.16). A cluster's
 * weight is the largest weight among the entries whose targetCluster matches it; clusters matching no entry get
 * nothing. If no candidate matches any entry (or the list is empty or absent), every candidate gets weight 1.
 * The replicas are then handed out one at a time by the Webster method ({@link allocateWebsterSeats}), ties
 * settled by the template's UID ({@link tieBreakerByUid}). Clusters left with 0 replicas are dropped; the rest
 * are sorted by name. `previous` is not consulted: Karmada's static division starts afresh every time.
 */
export function assignByStaticWeight(
  candidates: readonly Readonly<Cluster>[],
  weightList: readonly Readonly<StaticClusterWeight>[] | undefined,
  replicas: number,
  _previous?: readonly Readonly<TargetCluster>[] | undefined,
  templateUid?: string | undefined,
): TargetCluster[] {
  const votes = new Map<string, number>();
  for (const cluster of candidates) {
    let weight = 0;
    for (const entry of weightList ?? []) {
      const w = validWeight(entry.weight);
      if (w > weight && clusterMatchesAffinity(cluster, entry.targetCluster)) weight = w;
    }
    if (weight > 0) votes.set(cluster.metadata.name ?? '', weight);
  }
  if (votes.size === 0) {
    for (const cluster of candidates) votes.set(cluster.metadata.name ?? '', 1);
  }
  return allocateWebsterSeats(replicas, votes, undefined, tieBreakerByUid(templateUid))
    .filter((p) => p.seats > 0)
    .map((p) => ({ name: p.name, replicas: p.seats }));
}

// Weights are int64 on the wire; a non-integer or non-positive weight never wins.
function validWeight(weight: number): number {
  return Number.isSafeInteger(weight) && weight > 0 ? weight : 0;
}
