// How a workload's replicas are spread over the clusters that passed the filters: Karmada's Duplicated and
// static-weight Divided strategies (pkg/scheduler/core/assignment.go, common.go, util/helper Dispenser).
import type { Cluster, StaticClusterWeight, TargetCluster } from '@warmstart/api';
import { clusterMatchesAffinity } from './cluster-affinity.js';

/** Every candidate runs all the replicas. */
export function assignDuplicated(
  candidates: readonly Readonly<Cluster>[],
  replicas: number,
): TargetCluster[] {
  return candidates.map((c) => ({ name: c.metadata.name ?? '', replicas }));
}

interface WeightedCluster {
  readonly name: string;
  readonly weight: bigint;
  readonly lastReplicas: number;
}

/**
 * Divide `replicas` by static weights. A cluster's weight is the largest weight among the entries whose
 * targetCluster matches it; clusters matching no entry get nothing. If no candidate matches any entry (or the
 * list is empty or absent), every candidate gets weight 1. Each cluster first gets floor(weight × replicas /
 * total); the remainder goes one by one down the list ordered by weight (highest first), then by replicas in
 * `previous` (most first, so the last remainder stays put), then by name. Karmada breaks the final tie at
 * random; we use the name so a result never flaps. Clusters left with 0 replicas are dropped.
 */
export function assignByStaticWeight(
  candidates: readonly Readonly<Cluster>[],
  weightList: readonly Readonly<StaticClusterWeight>[] | undefined,
  replicas: number,
  previous: readonly Readonly<TargetCluster>[] | undefined,
): TargetCluster[] {
  const lastReplicas = new Map((previous ?? []).map((t) => [t.name, t.replicas ?? 0]));
  let weighted: WeightedCluster[] = [];
  for (const cluster of candidates) {
    const name = cluster.metadata.name ?? '';
    let weight = 0n;
    for (const entry of weightList ?? []) {
      const w = toBigInt(entry.weight);
      if (w > weight && clusterMatchesAffinity(cluster, entry.targetCluster)) weight = w;
    }
    if (weight > 0n) weighted.push({ name, weight, lastReplicas: lastReplicas.get(name) ?? 0 });
  }
  if (weighted.length === 0) {
    weighted = candidates.map((c) => {
      const name = c.metadata.name ?? '';
      return { name, weight: 1n, lastReplicas: lastReplicas.get(name) ?? 0 };
    });
  }
  weighted.sort(
    (a, b) =>
      compareBigInt(b.weight, a.weight) ||
      b.lastReplicas - a.lastReplicas ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  const sum = weighted.reduce((acc, w) => acc + w.weight, 0n);
  const total = BigInt(replicas);
  const result = weighted.map((w) => ({ name: w.name, replicas: Number((w.weight * total) / sum) }));
  let remain = replicas - result.reduce((acc, t) => acc + t.replicas, 0);
  for (const target of result) {
    if (remain === 0) break;
    target.replicas++;
    remain--;
  }
  return result.filter((t) => t.replicas > 0);
}

// Weights are int64 on the wire; a non-integer or non-positive weight never wins.
function toBigInt(weight: number): bigint {
  return Number.isSafeInteger(weight) && weight > 0 ? BigInt(weight) : 0n;
}

function compareBigInt(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
