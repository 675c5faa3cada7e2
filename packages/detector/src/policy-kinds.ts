// What differs between a PropagationPolicy and a ClusterPropagationPolicy for the controller: resource, label,
// finalizer, queue key, and the webhook defaults applied in memory before a policy is used.
import {
  type ClusterPropagationPolicy,
  Finalizers,
  type GroupVersionResource,
  KarmadaResources,
  Labels,
  type PropagationPolicy,
} from '@warmstart/api';
import type { ClaimingPolicy } from './policy-choice.js';
import { defaultClusterPropagationPolicy, defaultPropagationPolicy } from './policy-defaults.js';

export type PolicyKind = ClaimingPolicy['kind'];

export function policyResource(kind: PolicyKind): GroupVersionResource {
  return kind === 'PropagationPolicy'
    ? KarmadaResources.PropagationPolicy
    : KarmadaResources.ClusterPropagationPolicy;
}

export function permanentIdLabel(kind: PolicyKind): string {
  return kind === 'PropagationPolicy'
    ? Labels.PropagationPolicyPermanentId
    : Labels.ClusterPropagationPolicyPermanentId;
}

export function policyFinalizer(kind: PolicyKind): string {
  return kind === 'PropagationPolicy' ? Finalizers.PropagationPolicy : Finalizers.ClusterPropagationPolicy;
}

export function claiming(
  kind: PolicyKind,
  policy: PropagationPolicy | ClusterPropagationPolicy,
): ClaimingPolicy {
  return { kind, policy } as ClaimingPolicy;
}

/** `namespace/name` for a PropagationPolicy, `name` for a ClusterPropagationPolicy: the policy queues' keys. */
export function policyQueueKey(c: ClaimingPolicy): string {
  const { namespace, name } = c.policy.metadata;
  return c.kind === 'PropagationPolicy' ? `${namespace ?? ''}/${name ?? ''}` : (name ?? '');
}

/** "PropagationPolicy ns/name" or "ClusterPropagationPolicy name", for messages. */
export function describePolicy(c: ClaimingPolicy): string {
  return `${c.kind} ${policyQueueKey(c)}`;
}

// The id is never invented in memory: a policy without its label stays without one (and cannot claim) until the
// reconcile has written a real id to the API server.
const noId = (): string => '';

/**
 * The policy as Karmada's mutating webhook would have stored it (selector namespaces, spread constraints,
 * Weighted division, failover grace period, propagateDeps for ServiceImport). Used for matching and for the
 * binding, so bindings equal Karmada's; the defaults are not written back to the user's policy.
 */
export function effectivePolicy(c: ClaimingPolicy): ClaimingPolicy {
  return c.kind === 'PropagationPolicy'
    ? { kind: c.kind, policy: defaultPropagationPolicy(c.policy, noId) }
    : { kind: c.kind, policy: defaultClusterPropagationPolicy(c.policy, noId) };
}
