// Policy preemption (pkg/detector/preemption.go): whether a policy with spec.preemption=Always takes a
// template away from the policy that claimed it. High-priority PP > low-priority PP > any CPP; a CPP only
// takes templates from CPPs of strictly lower priority. Templates nobody claimed are left to normal matching.
import type { ClusterPropagationPolicy, ObjectMeta, PropagationPolicy } from '@warmstart/api';
import { readClaim, type TemplateClaim } from './claim.js';
import { type ClaimingPolicy, explicitPriority } from './policy-choice.js';

export type PreemptionSkipReason =
  | 'gate-disabled'
  | 'preemption-never'
  | 'template-being-deleted'
  | 'not-claimed'
  | 'claimed-by-self'
  | 'priority-not-higher'
  | 'cluster-policy-cannot-preempt-propagation-policy';

export type PreemptionDecision =
  | { readonly preempt: true; readonly from: TemplateClaim }
  | { readonly preempt: false; readonly reason: PreemptionSkipReason };

export interface PreemptionInput {
  /** The policy that wants the template (spec.preemption must be Always). */
  readonly preemptor: ClaimingPolicy;
  /** The template's metadata, as the cache holds it. */
  readonly template: Partial<ObjectMeta>;
  /**
   * Explicit priority of the policy that holds the claim, when it is of the preemptor's kind. The caller looks
   * it up by the claim's name; when that policy is gone the template's own reconcile drops the stale claim.
   */
  readonly claimedPolicyPriority?: number;
  /** Karmada's PolicyPreemption gate (alpha, off by default). */
  readonly policyPreemptionEnabled: boolean;
}

function isSelf(claim: TemplateClaim, preemptor: ClaimingPolicy): boolean {
  const { name, namespace } = preemptor.policy.metadata;
  if (claim.kind !== preemptor.kind) return false;
  return claim.kind === 'PropagationPolicy'
    ? claim.namespace === namespace && claim.name === name
    : claim.name === name;
}

/** Whether `preemptor` should re-claim the template now. */
export function preemptionDecision(input: PreemptionInput): PreemptionDecision {
  const { preemptor, template } = input;
  if (!input.policyPreemptionEnabled) return { preempt: false, reason: 'gate-disabled' };
  if (preemptor.policy.spec.preemption !== 'Always') return { preempt: false, reason: 'preemption-never' };
  if (template.deletionTimestamp) return { preempt: false, reason: 'template-being-deleted' };
  const claim = readClaim(template);
  if (claim === undefined) return { preempt: false, reason: 'not-claimed' };
  if (isSelf(claim, preemptor)) return { preempt: false, reason: 'claimed-by-self' };
  if (preemptor.kind === 'ClusterPropagationPolicy' && claim.kind === 'PropagationPolicy') {
    return { preempt: false, reason: 'cluster-policy-cannot-preempt-propagation-policy' };
  }
  // A PropagationPolicy takes a template from any ClusterPropagationPolicy, whatever the priorities.
  if (preemptor.kind === 'PropagationPolicy' && claim.kind === 'ClusterPropagationPolicy') {
    return { preempt: true, from: claim };
  }
  if (explicitPriority(preemptor.policy) <= (input.claimedPolicyPriority ?? 0)) {
    return { preempt: false, reason: 'priority-not-higher' };
  }
  return { preempt: true, from: claim };
}

/**
 * After a policy's priority dropped from `oldPriority` to `newPriority`, the peers that may now preempt what it
 * holds: those with an explicit priority strictly between the two and spec.preemption=Always, highest first.
 */
export function deprioritizedPeers<P extends PropagationPolicy | ClusterPropagationPolicy>(
  oldPriority: number,
  newPriority: number,
  peers: readonly P[],
): P[] {
  if (newPriority >= oldPriority) return [];
  return peers
    .filter((p) => {
      const priority = p.spec.priority;
      return (
        priority !== undefined &&
        p.spec.preemption === 'Always' &&
        newPriority < priority &&
        priority < oldPriority
      );
    })
    .sort((a, b) => (b.spec.priority ?? 0) - (a.spec.priority ?? 0));
}
