// Karmada records a binding's placement in the policy.karmada.io/applied-placement annotation with Go's
// encoding/json, which writes a struct's fields in declaration order. Objects read from the API server have
// their keys in alphabetical order, so JSON.stringify of a cached placement gives other bytes for the same
// placement: a binding written by Karmada and one written by us would differ in that annotation. The field
// orders below are those of Karmada's types (pkg/apis/policy/v1alpha1/propagation_types.go and the Kubernetes
// types they embed, at commit f8fdd02df3760fd9521624f284877fa84e7be6ef).

type Shape = { readonly [field: string]: Shape | undefined } | undefined;

const requirement: Shape = { key: undefined, operator: undefined, values: undefined };
const labelSelector: Shape = { matchLabels: undefined, matchExpressions: requirement };
const clusterAffinity = {
  labelSelector,
  fieldSelector: { matchExpressions: requirement },
  clusterNames: undefined,
  exclude: undefined,
} as const;
const toleration: Shape = {
  key: undefined,
  operator: undefined,
  value: undefined,
  effect: undefined,
  tolerationSeconds: undefined,
};

/** Placement, field by field in Go declaration order; a nested shape applies to an object or each array item. */
export const PLACEMENT_SHAPE: Shape = {
  clusterAffinity,
  clusterAffinities: { affinityName: undefined, ...clusterAffinity, overflowAffinities: undefined },
  clusterTolerations: toleration,
  spreadConstraints: {
    spreadByField: undefined,
    spreadByLabel: undefined,
    maxGroups: undefined,
    minGroups: undefined,
  },
  replicaScheduling: {
    replicaSchedulingType: undefined,
    replicaDivisionPreference: undefined,
    weightPreference: {
      staticWeightList: { targetCluster: clusterAffinity, weight: undefined },
      dynamicWeight: undefined,
    },
  },
  workloadAffinity: undefined,
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `value` with its keys in the order of `shape` (keys `shape` does not know follow, in their own order). Map
 * fields such as matchLabels keep their keys sorted, as Go's encoder writes a map.
 */
export function inGoFieldOrder(value: unknown, shape: Shape): unknown {
  if (Array.isArray(value)) return value.map((v) => inGoFieldOrder(v, shape));
  if (!isRecord(value)) return value;
  if (shape === undefined) return value;
  const out: Record<string, unknown> = {};
  for (const [field, inner] of Object.entries(shape)) {
    if (!(field in value)) continue;
    const v = value[field];
    out[field] =
      field === 'matchLabels' && isRecord(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : inGoFieldOrder(v, inner);
  }
  for (const [k, v] of Object.entries(value)) if (!(k in out)) out[k] = v;
  return out;
}
