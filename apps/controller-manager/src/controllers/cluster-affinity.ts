// Whether a member cluster matches a ClusterAffinity, with Karmada's rules (pkg/util/selector.go
// ClusterMatches): exclude wins; then the label selector, the field selector and the name list must all
// match, an absent part matching everything. A selector apimachinery would reject matches nothing.
import type {
  Cluster,
  ClusterAffinity,
  FieldSelector,
  LabelSelector,
  NodeSelectorRequirement,
  StringMap,
} from '@warmstart/api';
import {
  compileLabelSelector,
  InvalidSelectorError,
  type Requirement,
  requirementOf,
  selectorOf,
} from '@warmstart/informer-cache';

/** Field-selector keys a ClusterAffinity may use, read from the Cluster's spec. */
export const ClusterField = {
  Provider: 'provider',
  Region: 'region',
  Zone: 'zone',
} as const;

export function clusterMatchesAffinity(
  cluster: Readonly<Cluster>,
  affinity: Readonly<ClusterAffinity>,
): boolean {
  const name = cluster.metadata.name ?? '';
  if (affinity.exclude?.includes(name)) return false;
  if (
    affinity.labelSelector !== undefined &&
    !labelSelectorMatches(affinity.labelSelector, cluster.metadata.labels)
  ) {
    return false;
  }
  if (affinity.fieldSelector !== undefined && !fieldSelectorMatches(affinity.fieldSelector, cluster))
    return false;
  const names = affinity.clusterNames;
  return names === undefined || names.length === 0 || names.includes(name);
}

/**
 * metav1.LabelSelectorAsSelector + Matches: matchLabels and every matchExpression must hold; `{}` matches
 * everything; an invalid selector (bad key or value, unknown operator, wrong number of values) matches nothing.
 */
export function labelSelectorMatches(
  selector: Readonly<LabelSelector>,
  labels: StringMap | undefined,
): boolean {
  try {
    return compileLabelSelector(selector).matches(labels);
  } catch (error) {
    if (error instanceof InvalidSelectorError) return false;
    throw error;
  }
}

/** Karmada's field selector: provider and region as labels of the Cluster, zone against spec.zones. */
export function fieldSelectorMatches(selector: Readonly<FieldSelector>, cluster: Readonly<Cluster>): boolean {
  const fields: Record<string, string> = {};
  if (cluster.spec.provider) fields[ClusterField.Provider] = cluster.spec.provider;
  if (cluster.spec.region) fields[ClusterField.Region] = cluster.spec.region;
  const others: Requirement[] = [];
  for (const expression of selector.matchExpressions ?? []) {
    if (expression.key === ClusterField.Zone) {
      // Karmada matches zone against spec.zones (the multi-zone field), not the deprecated spec.zone.
      if (!zonesMatch(expression, cluster.spec.zones ?? [])) return false;
      continue;
    }
    // A NodeSelectorRequirement: Gt and Lt are allowed besides the label operators.
    const r = requirementOf(expression, [], { numeric: true });
    if (r === undefined) return false;
    others.push(r);
  }
  return selectorOf(others).matches(fields);
}

// In: some zone of the cluster is listed (Karmada v1.18 on; before, all had to be); NotIn: none is;
// Exists / DoesNotExist: the cluster has some zones / none. Any other operator matches nothing.
function zonesMatch(expression: Readonly<NodeSelectorRequirement>, zones: readonly string[]): boolean {
  const values = expression.values ?? [];
  switch (expression.operator) {
    case 'In':
      return zones.some((z) => values.includes(z));
    case 'NotIn':
      return zones.every((z) => !values.includes(z));
    case 'Exists':
      return zones.length > 0;
    case 'DoesNotExist':
      return zones.length === 0;
    default:
      return false;
  }
}
