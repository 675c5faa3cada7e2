// Lazy activation (spec.activationPreference: Lazy): a policy change reaches a template's binding only after
// the template itself changes. Queue keys carry "resourceChangeByKarmada" to tell the two apart, and only for
// templates of Lazy policies (true and false are distinct keys that may run concurrently; issue #5996).
import type { ClusterPropagationPolicy, PropagationPolicy } from '@warmstart/api';

export function isLazy(policy: PropagationPolicy | ClusterPropagationPolicy): boolean {
  return policy.spec.activationPreference === 'Lazy';
}

/**
 * The resourceChangeByKarmada flag for an enqueue that a policy event caused: true exactly for Lazy policies,
 * so that the binding is not touched until the user edits the template.
 */
export function policyDrivenChangeFlag(policy: PropagationPolicy | ClusterPropagationPolicy): boolean {
  return isLazy(policy);
}

/**
 * Whether the reconcile should stop after claiming the template and leave the binding alone. The first bind of
 * a new template still happens, because add events carry false.
 */
export function skipBindingSync(
  resourceChangeByKarmada: boolean,
  policy: PropagationPolicy | ClusterPropagationPolicy,
): boolean {
  return resourceChangeByKarmada && isLazy(policy);
}
