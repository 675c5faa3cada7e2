// Claim metadata (pkg/detector/claim.go): the labels and annotations that tie a template and its binding to
// the policy that claimed them, and the rules for adding, switching and removing them.
import {
  Annotations,
  type ClusterPropagationPolicy,
  Labels,
  type PropagationPolicy,
  type StringMap,
} from '@warmstart/api';
import { MissingPermanentIdError } from './errors.js';
import type { Labelled, MetadataChange } from './metadata-change.js';
import type { ClaimingPolicy } from './policy-choice.js';

/** Which policy a template (or binding) says claimed it. */
export type TemplateClaim =
  | {
      readonly kind: 'PropagationPolicy';
      readonly namespace: string;
      readonly name: string;
      readonly permanentId: string;
    }
  | { readonly kind: 'ClusterPropagationPolicy'; readonly name: string; readonly permanentId: string };

/**
 * The complete claim on an object, or undefined. A PropagationPolicy claim needs the namespace and name
 * annotations and the permanent-id label; it is read first. A ClusterPropagationPolicy claim needs the name
 * annotation and its permanent-id label. A partial claim counts as none: the template is matched afresh.
 */
export function readClaim(meta: Labelled): TemplateClaim | undefined {
  const labels = meta.labels ?? {};
  const annotations = meta.annotations ?? {};
  const ppNamespace = annotations[Annotations.PropagationPolicyNamespace];
  const ppName = annotations[Annotations.PropagationPolicyName];
  const ppId = labels[Labels.PropagationPolicyPermanentId];
  if (ppNamespace && ppName && ppId) {
    return { kind: 'PropagationPolicy', namespace: ppNamespace, name: ppName, permanentId: ppId };
  }
  const cppName = annotations[Annotations.ClusterPropagationPolicyName];
  const cppId = labels[Labels.ClusterPropagationPolicyPermanentId];
  if (cppName && cppId) return { kind: 'ClusterPropagationPolicy', name: cppName, permanentId: cppId };
  return undefined;
}

/** True when another Karmada feature (e.g. MultiClusterService) owns the template: policies leave it alone. */
export function isClaimedByOtherFeature(meta: Labelled): boolean {
  return Boolean(meta.labels?.[Labels.ResourceTemplateClaimedBy]);
}

/** A policy's permanent id (its own label). Throws MissingPermanentIdError when the label is absent. */
export function permanentIdOf(claiming: ClaimingPolicy): string {
  const label =
    claiming.kind === 'PropagationPolicy'
      ? Labels.PropagationPolicyPermanentId
      : Labels.ClusterPropagationPolicyPermanentId;
  const id = claiming.policy.metadata.labels?.[label];
  if (!id) throw new MissingPermanentIdError(claiming.kind, policyDisplayName(claiming));
  return id;
}

function policyDisplayName(claiming: ClaimingPolicy): string {
  const { namespace, name } = claiming.policy.metadata;
  return claiming.kind === 'PropagationPolicy' ? `${namespace ?? ''}/${name ?? ''}` : (name ?? '');
}

const empty: StringMap = {};

/** The claim labels and annotations a PropagationPolicy puts on what it claims (AddPPClaimMetadata). */
export function propagationPolicyClaimMetadata(
  policy: PropagationPolicy,
  permanentId: string,
): MetadataChange {
  return {
    setLabels: { [Labels.PropagationPolicyPermanentId]: permanentId },
    removeLabels: [],
    setAnnotations: {
      [Annotations.PropagationPolicyNamespace]: policy.metadata.namespace ?? '',
      [Annotations.PropagationPolicyName]: policy.metadata.name ?? '',
    },
    removeAnnotations: [],
  };
}

/** The claim labels and annotations a ClusterPropagationPolicy puts on what it claims (AddCPPClaimMetadata). */
export function clusterPropagationPolicyClaimMetadata(
  policy: ClusterPropagationPolicy,
  permanentId: string,
): MetadataChange {
  return {
    setLabels: { [Labels.ClusterPropagationPolicyPermanentId]: permanentId },
    removeLabels: [],
    setAnnotations: { [Annotations.ClusterPropagationPolicyName]: policy.metadata.name ?? '' },
    removeAnnotations: [],
  };
}

/** The claim metadata of either kind of policy. */
export function claimMetadata(claiming: ClaimingPolicy, permanentId: string): MetadataChange {
  return claiming.kind === 'PropagationPolicy'
    ? propagationPolicyClaimMetadata(claiming.policy, permanentId)
    : clusterPropagationPolicyClaimMetadata(claiming.policy, permanentId);
}

/** Removes a PropagationPolicy claim (CleanupPPClaimMetadata). */
export const REMOVE_PROPAGATION_POLICY_CLAIM: MetadataChange = Object.freeze({
  setLabels: empty,
  removeLabels: [Labels.PropagationPolicyPermanentId],
  setAnnotations: empty,
  removeAnnotations: [Annotations.PropagationPolicyNamespace, Annotations.PropagationPolicyName],
});

/** Removes a ClusterPropagationPolicy claim (CleanupCPPClaimMetadata). */
export const REMOVE_CLUSTER_PROPAGATION_POLICY_CLAIM: MetadataChange = Object.freeze({
  setLabels: empty,
  removeLabels: [Labels.ClusterPropagationPolicyPermanentId],
  setAnnotations: empty,
  removeAnnotations: [Annotations.ClusterPropagationPolicyName],
});

/**
 * What to change on a template so that `claiming` claims it, or undefined when nothing needs writing.
 * A PropagationPolicy claim is a no-op when its id is already there and there is no ClusterPropagationPolicy
 * label; otherwise it strips the ClusterPropagationPolicy claim and adds its own. A ClusterPropagationPolicy
 * claim is a no-op when its id is already there; otherwise it adds its own claim and strips nothing.
 */
export function templateClaimChange(
  templateMeta: Labelled,
  claiming: ClaimingPolicy,
): MetadataChange | undefined {
  const id = permanentIdOf(claiming);
  const labels = templateMeta.labels ?? {};
  if (claiming.kind === 'PropagationPolicy') {
    if (
      labels[Labels.PropagationPolicyPermanentId] === id &&
      !labels[Labels.ClusterPropagationPolicyPermanentId]
    ) {
      return undefined;
    }
    const add = propagationPolicyClaimMetadata(claiming.policy, id);
    return {
      setLabels: add.setLabels,
      removeLabels: REMOVE_CLUSTER_PROPAGATION_POLICY_CLAIM.removeLabels,
      setAnnotations: add.setAnnotations,
      removeAnnotations: REMOVE_CLUSTER_PROPAGATION_POLICY_CLAIM.removeAnnotations,
    };
  }
  if (labels[Labels.ClusterPropagationPolicyPermanentId] === id) return undefined;
  return clusterPropagationPolicyClaimMetadata(claiming.policy, id);
}

/**
 * Whether an object still carries exactly the claim being removed (NeedCleanupClaimMetadata): every label in
 * `claimLabels` must be present with the same value. Guards against unclaiming after a new policy took over.
 */
export function claimStillHeld(meta: Labelled, claimLabels: StringMap): boolean {
  const labels = meta.labels ?? {};
  return Object.entries(claimLabels).every(([key, value]) => labels[key] === value);
}

/**
 * What to change on an object when the policy with `permanentId` lets it go, or undefined when the object's
 * claim is no longer that policy's (so nothing may be removed).
 */
export function unclaimChange(
  meta: Labelled,
  kind: ClaimingPolicy['kind'],
  permanentId: string,
): MetadataChange | undefined {
  const label =
    kind === 'PropagationPolicy'
      ? Labels.PropagationPolicyPermanentId
      : Labels.ClusterPropagationPolicyPermanentId;
  if (!claimStillHeld(meta, { [label]: permanentId })) return undefined;
  return kind === 'PropagationPolicy'
    ? REMOVE_PROPAGATION_POLICY_CLAIM
    : REMOVE_CLUSTER_PROPAGATION_POLICY_CLAIM;
}
