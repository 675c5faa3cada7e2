// What a template's reconcile should do (Reconcile + propagateResource + getAndApply[Cluster]Policy), decided
// from the cached template and cached policies alone. The caller performs the writes and the waiting-list
// bookkeeping the decision names.
import type { ClusterPropagationPolicy, KubeObject, PropagationPolicy } from '@warmstart/api';
import { isClaimedByOtherFeature, readClaim, type TemplateClaim } from './claim.js';
import { type ClaimingPolicy, findClaimingPolicy, type PolicyCandidates } from './policy-choice.js';
import { resourceMatchesSelectors } from './resource-selector.js';

/** Read access to cached policies; every method answers from memory. */
export interface PolicyLookup extends PolicyCandidates {
  propagationPolicy(namespace: string, name: string): PropagationPolicy | undefined;
  clusterPropagationPolicy(name: string): ClusterPropagationPolicy | undefined;
  /** Whether an OverridePolicy exists; without it, dependentOverrides are taken as present. */
  overridePolicyExists?(namespace: string, name: string): boolean;
  /** Whether a ClusterOverridePolicy exists; without it, dependentOverrides are taken as present. */
  clusterOverridePolicyExists?(name: string): boolean;
}

export type TemplateDecision =
  /** Another Karmada feature owns the template (resourcetemplate.karmada.io/claimed-by): drop it from waiting. */
  | { readonly action: 'ignore'; readonly reason: 'claimed-by-other-feature' }
  /** Claim (if needed) and apply this policy; `matched` means it was found by matching, not by an existing claim. */
  | { readonly action: 'apply'; readonly policy: ClaimingPolicy; readonly matched: boolean }
  /** The claiming policy is gone: remove its claim from the binding, then from the template. */
  | { readonly action: 'cleanup-stale-claim'; readonly claim: TemplateClaim }
  /** Try again later (rate-limited requeue). */
  | {
      readonly action: 'retry';
      readonly reason: 'policy-being-deleted' | 'waiting-for-dependent-overrides';
      readonly policy: ClaimingPolicy;
    }
  /**
   * The claiming policy's selectors no longer match this object: do nothing. Deliberate in Karmada: a kind
   * served by two groups (Ingress in extensions and networking.k8s.io) must not be propagated twice.
   */
  | {
      readonly action: 'none';
      readonly reason: 'claimed-policy-no-longer-matches';
      readonly policy: ClaimingPolicy;
    }
  /** No policy matches: add to the waiting list (retry once if it was not waiting yet). */
  | { readonly action: 'no-match' };

function dependentOverridesPresent(claiming: ClaimingPolicy, lookup: PolicyLookup): boolean {
  const names = claiming.policy.spec.dependentOverrides ?? [];
  if (claiming.kind === 'PropagationPolicy') {
    const exists = lookup.overridePolicyExists;
    const namespace = claiming.policy.metadata.namespace ?? '';
    return exists === undefined || names.every((n) => exists.call(lookup, namespace, n));
  }
  const exists = lookup.clusterOverridePolicyExists;
  return exists === undefined || names.every((n) => exists.call(lookup, n));
}

function applyChecked(claiming: ClaimingPolicy, matched: boolean, lookup: PolicyLookup): TemplateDecision {
  if (!dependentOverridesPresent(claiming, lookup)) {
    return { action: 'retry', reason: 'waiting-for-dependent-overrides', policy: claiming };
  }
  return { action: 'apply', policy: claiming, matched };
}

function followClaim(template: KubeObject, claim: TemplateClaim, lookup: PolicyLookup): TemplateDecision {
  const claiming: ClaimingPolicy | undefined =
    claim.kind === 'PropagationPolicy'
      ? wrap('PropagationPolicy', lookup.propagationPolicy(claim.namespace, claim.name))
      : wrap('ClusterPropagationPolicy', lookup.clusterPropagationPolicy(claim.name));
  if (claiming === undefined) return { action: 'cleanup-stale-claim', claim };
  if (claiming.policy.metadata.deletionTimestamp) {
    return { action: 'retry', reason: 'policy-being-deleted', policy: claiming };
  }
  if (!resourceMatchesSelectors(template, claiming.policy.spec.resourceSelectors)) {
    return { action: 'none', reason: 'claimed-policy-no-longer-matches', policy: claiming };
  }
  return applyChecked(claiming, false, lookup);
}

function wrap(kind: 'PropagationPolicy', policy: PropagationPolicy | undefined): ClaimingPolicy | undefined;
function wrap(
  kind: 'ClusterPropagationPolicy',
  policy: ClusterPropagationPolicy | undefined,
): ClaimingPolicy | undefined;
function wrap(
  kind: ClaimingPolicy['kind'],
  policy: PropagationPolicy | ClusterPropagationPolicy | undefined,
): ClaimingPolicy | undefined {
  if (policy === undefined) return undefined;
  return { kind, policy } as ClaimingPolicy;
}

/**
 * Decides a template's reconcile: an object claimed by another feature is ignored; a complete claim is
 * followed (PropagationPolicy claim first); otherwise the best PropagationPolicy in the namespace, else the
 * best ClusterPropagationPolicy, is applied; otherwise the template waits for a policy.
 */
export function decideTemplate(template: KubeObject, lookup: PolicyLookup): TemplateDecision {
  if (isClaimedByOtherFeature(template.metadata))
    return { action: 'ignore', reason: 'claimed-by-other-feature' };
  const claim = readClaim(template.metadata);
  if (claim !== undefined) return followClaim(template, claim, lookup);
  const claiming = findClaimingPolicy(template, lookup);
  return claiming === undefined ? { action: 'no-match' } : applyChecked(claiming, true, lookup);
}
