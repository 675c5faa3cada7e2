// Cluster taints against a placement's clusterTolerations, with Kubernetes' toleration rules
// (k8s.io/api core/v1 Toleration.ToleratesTaint). The scheduler only honours NoSchedule and NoExecute taints.
import type { Taint, Toleration } from '@warmstart/api';

/** Whether `toleration` tolerates `taint`: empty effect and empty key match any; Exists ignores the value. */
export function toleratesTaint(toleration: Readonly<Toleration>, taint: Readonly<Taint>): boolean {
  if (toleration.effect !== undefined && toleration.effect !== taint.effect) return false;
  if (toleration.key !== undefined && toleration.key !== '' && toleration.key !== taint.key) return false;
  switch (toleration.operator) {
    case undefined:
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/**
 * The first NoSchedule or NoExecute taint no toleration tolerates, or undefined when the cluster is schedulable
 * for these tolerations. PreferNoSchedule taints never exclude a cluster.
 */
export function findUntoleratedTaint(
  taints: readonly Readonly<Taint>[] | undefined,
  tolerations: readonly Readonly<Toleration>[] | undefined,
): Readonly<Taint> | undefined {
  for (const taint of taints ?? []) {
    if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
    if (!(tolerations ?? []).some((t) => toleratesTaint(t, taint))) return taint;
  }
  return undefined;
}

/** Taint.ToString(): `key=value:effect`, or `key:effect` without a value. */
export function formatTaint(taint: Readonly<Taint>): string {
  return taint.value ? `${taint.key}=${taint.value}:${taint.effect}` : `${taint.key}:${taint.effect}`;
}
