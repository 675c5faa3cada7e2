// Cluster taints against a placement's clusterTolerations, with Kubernetes' toleration rules
// (k8s.io/api core/v1 Toleration.ToleratesTaint). The scheduler only honours NoSchedule and NoExecute taints.
import type { Taint, Toleration } from '@warmstart/api';

/**
 * Whether `toleration` tolerates `taint`: an empty or absent effect and key match any; an empty or absent
 * operator is Equal; Exists ignores the value. Lt and Gt tolerate nothing: Karmada's scheduler calls
 * Kubernetes' helper with the comparison operators disabled.
 */
export function toleratesTaint(toleration: Readonly<Toleration>, taint: Readonly<Taint>): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  // The type allows only Exists and Equal, but objects arrive from the API server as JSON.
  const operator: string | undefined = toleration.operator;
  switch (operator) {
    case undefined:
    case '':
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

/** Taint.ToString(): `key=value:effect`, `key:effect` without a value, `key=value:` / `key` without an effect. */
export function formatTaint(taint: Readonly<Taint>): string {
  if (!taint.effect) return taint.value ? `${taint.key}=${taint.value}:` : taint.key;
  return taint.value ? `${taint.key}=${taint.value}:${taint.effect}` : `${taint.key}:${taint.effect}`;
}
