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

type Requirement = (labels: StringMap) => boolean;

/**
 * metav1.LabelSelectorAsSelector + Matches: matchLabels and every matchExpression must hold; `{}` matches
 * everything; an invalid selector (bad key or value, unknown operator, wrong number of values) matches nothing.
 */
export function labelSelectorMatches(
  selector: Readonly<LabelSelector>,
  labels: StringMap | undefined,
): boolean {
  const requirements: Requirement[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    const r = requirement(key, 'In', [value]);
    if (r === undefined) return false;
    requirements.push(r);
  }
  for (const expression of selector.matchExpressions ?? []) {
    const r = requirement(expression.key, expression.operator, expression.values ?? []);
    if (r === undefined) return false;
    requirements.push(r);
  }
  const set = labels ?? {};
  return requirements.every((r) => r(set));
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
    const r = requirement(expression.key, expression.operator, expression.values ?? []);
    if (r === undefined) return false;
    others.push(r);
  }
  return others.every((r) => r(fields));
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

// labels.NewRequirement's validation and semantics; undefined when apimachinery would return an error.
function requirement(key: string, operator: string, values: readonly string[]): Requirement | undefined {
  if (!isQualifiedName(key)) return undefined;
  switch (operator) {
    case 'In':
    case 'NotIn': {
      if (values.length === 0 || !values.every(isLabelValue)) return undefined;
      const set = new Set(values);
      return operator === 'In'
        ? (labels) => Object.hasOwn(labels, key) && set.has(labels[key]!)
        : (labels) => !Object.hasOwn(labels, key) || !set.has(labels[key]!);
    }
    case 'Exists':
      return values.length === 0 ? (labels) => Object.hasOwn(labels, key) : undefined;
    case 'DoesNotExist':
      return values.length === 0 ? (labels) => !Object.hasOwn(labels, key) : undefined;
    case 'Gt':
    case 'Lt': {
      const bound = values.length === 1 ? parseInt64(values[0]!) : undefined;
      if (bound === undefined) return undefined;
      return (labels) => {
        if (!Object.hasOwn(labels, key)) return false;
        const actual = parseInt64(labels[key]!);
        if (actual === undefined) return false;
        return operator === 'Gt' ? actual > bound : actual < bound;
      };
    }
    default:
      return undefined;
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

// strconv.ParseInt(s, 10, 64): an optional sign and decimal digits, within int64.
function parseInt64(text: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}

const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

// validation.IsQualifiedName: [prefix/]name, name at most 63 characters, prefix a DNS subdomain.
function isQualifiedName(key: string): boolean {
  const slash = key.indexOf('/');
  const name = slash < 0 ? key : key.slice(slash + 1);
  if (slash >= 0) {
    const prefix = key.slice(0, slash);
    if (prefix.length === 0 || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix)) return false;
  }
  return name.length > 0 && name.length <= 63 && NAME_PART.test(name);
}

// validation.IsValidLabelValue: empty, or at most 63 characters shaped like a name part.
function isLabelValue(value: string): boolean {
  return value === '' || (value.length <= 63 && NAME_PART.test(value));
}
