// Which policy claims an unclaimed template (pkg/detector/compare.go and LookForMatched[Cluster]Policy):
// explicit priority first, then implicit priority, then the smaller name; PropagationPolicies in the
// template's namespace first, ClusterPropagationPolicies only when none matches.
import type { ClusterPropagationPolicy, KubeObject, PropagationPolicy } from '@warmstart/api';
import { ImplicitPriority, implicitPriority } from './resource-selector.js';

/** Either kind of policy, tagged so callers can tell them apart without looking at TypeMeta. */
export type ClaimingPolicy =
  | { readonly kind: 'PropagationPolicy'; readonly policy: PropagationPolicy }
  | { readonly kind: 'ClusterPropagationPolicy'; readonly policy: ClusterPropagationPolicy };

type AnyPolicy = PropagationPolicy | ClusterPropagationPolicy;

/** spec.priority, with absent meaning 0. */
export function explicitPriority(policy: AnyPolicy): number {
  return policy.spec.priority ?? 0;
}

/** Go compares strings bytewise; for the ASCII names Kubernetes allows this is plain code-unit order. */
const nameOf = (p: AnyPolicy): string => p.metadata.name ?? '';

/**
 * The policy among `policies` that wins `template`, or undefined when none matches. Policies being deleted
 * are ignored, as Karmada's lookups skip them.
 */
export function highestPriorityPolicy<P extends AnyPolicy>(
  template: KubeObject,
  policies: readonly P[],
): P | undefined {
  let best: P | undefined;
  let bestImplicit: ImplicitPriority = ImplicitPriority.MisMatch;
  // Starts below any int32 so that a policy with a negative priority can still win.
  let bestExplicit = Number.NEGATIVE_INFINITY;
  for (const policy of policies) {
    if (policy.metadata.deletionTimestamp) continue;
    const implicit = implicitPriority(template, policy.spec.resourceSelectors);
    if (implicit === ImplicitPriority.MisMatch) continue;
    const explicit = explicitPriority(policy);
    if (explicit > bestExplicit) {
      best = policy;
      bestExplicit = explicit;
      bestImplicit = implicit;
    } else if (explicit === bestExplicit) {
      if (implicit > bestImplicit) {
        best = policy;
        bestImplicit = implicit;
      } else if (implicit === bestImplicit && best !== undefined && nameOf(policy) < nameOf(best)) {
        best = policy;
      }
    }
  }
  return best;
}

/** Candidate policies for one template, as a cache would list them. */
export interface PolicyCandidates {
  /** PropagationPolicies; only those in the template's namespace are considered. */
  readonly propagationPolicies: readonly PropagationPolicy[];
  readonly clusterPropagationPolicies: readonly ClusterPropagationPolicy[];
}

/**
 * The policy that should claim an unclaimed template: the best PropagationPolicy in its namespace, else the
 * best ClusterPropagationPolicy. A cluster-scoped template can only be claimed by a ClusterPropagationPolicy.
 */
export function findClaimingPolicy(
  template: KubeObject,
  candidates: PolicyCandidates,
): ClaimingPolicy | undefined {
  const namespace = template.metadata.namespace;
  if (namespace) {
    const local = candidates.propagationPolicies.filter((p) => p.metadata.namespace === namespace);
    const pp = highestPriorityPolicy(template, local);
    if (pp) return { kind: 'PropagationPolicy', policy: pp };
  }
  const cpp = highestPriorityPolicy(template, candidates.clusterPropagationPolicies);
  return cpp ? { kind: 'ClusterPropagationPolicy', policy: cpp } : undefined;
}
