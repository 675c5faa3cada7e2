// What in a binding's placement can never match a Cluster, said in words a user can act on. Karmada's
// validating webhook refuses a field selector on anything but provider, region and zone; without a webhook the
// scheduler's NoClusterFit would be all a user sees, so the Event that reports it names the key.
import type { ClusterAffinity, Placement } from '@warmstart/api';
import { ClusterField } from './cluster-affinity.js';

const FIELDS: readonly string[] = Object.values(ClusterField);

export function placementProblems(placement: Readonly<Placement> | undefined): string[] {
  if (placement === undefined) return [];
  const problems: string[] = [];
  const check = (affinity: Readonly<ClusterAffinity> | undefined, path: string) => {
    for (const [i, e] of (affinity?.fieldSelector?.matchExpressions ?? []).entries()) {
      if (!FIELDS.includes(e.key))
        problems.push(
          `${path}.fieldSelector.matchExpressions[${i}].key "${e.key}" is not a Cluster field (use ${FIELDS.join(', ')}), so it matches no cluster`,
        );
    }
  };
  check(placement.clusterAffinity, 'placement.clusterAffinity');
  for (const [i, term] of (placement.clusterAffinities ?? []).entries())
    check(term, `placement.clusterAffinities[${i}]`);
  return problems;
}
