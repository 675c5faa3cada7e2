// How the detector writes a binding (controllerutil.CreateOrUpdate with Karmada's mutate function): create it
// when absent; otherwise merge metadata, replace only the policy-derived spec fields, and write nothing when
// the result is semantically equal to what is stored. spec.clusters, eviction tasks, requiredBy,
// rescheduleTriggeredAt and status are never touched.
import type {
  BindingSuspension,
  ClusterResourceBinding,
  ResourceBinding,
  ResourceBindingSpec,
  StringMap,
  Suspension,
} from '@warmstart/api';
import { Labels } from '@warmstart/api';
import type { DesiredBinding } from './binding-builder.js';
import { REMOVE_CLUSTER_PROPAGATION_POLICY_CLAIM } from './claim.js';
import { BindingOwnerMismatchError } from './errors.js';
import { withMetadataChange } from './metadata-change.js';
import { semanticallyEqual } from './semantic-equal.js';

type Binding = ResourceBinding | ClusterResourceBinding;

/** What to send to the API server for a binding. */
export type BindingWrite<B extends Binding = Binding> =
  | { readonly op: 'create'; readonly binding: B }
  | { readonly op: 'update'; readonly binding: B }
  | { readonly op: 'none' };

/** Spec fields every update replaces with the policy's and template's current values. */
export const REPLACED_SPEC_FIELDS = [
  'resource',
  'replicaRequirements',
  'replicas',
  'components',
  'schedulerName',
  'placement',
  'failover',
  'conflictResolution',
  'preserveResourcesOnDeletion',
] as const satisfies readonly (keyof ResourceBindingSpec)[];

/**
 * Replaced on a ResourceBinding only. Karmada's ClusterResourceBinding update path leaves them as created
 * (a known gap; open PRs #7407, #7421, #7422), and so do we, to write exactly what Karmada writes.
 */
export const RESOURCE_BINDING_ONLY_FIELDS = [
  'propagateDeps',
  'schedulePriority',
  'workloadAffinityGroups',
] as const satisfies readonly (keyof ResourceBindingSpec)[];

function mergeMaps(existing: StringMap | undefined, desired: StringMap | undefined): StringMap | undefined {
  if (existing === undefined) return desired;
  return { ...existing, ...desired };
}

// util.DedupeAndMergeFinalizers: either side alone is returned as is; both give the sorted union.
function mergeFinalizers(
  existing: readonly string[] | undefined,
  desired: readonly string[] | undefined,
): readonly string[] | undefined {
  if (!existing || existing.length === 0) return desired;
  if (!desired || desired.length === 0) return existing;
  return [...new Set([...existing, ...desired])].sort();
}

/** MergePolicySuspension: the policy's dispatching settings replace the binding's; its scheduling flag stays. */
export function mergeSuspension(
  existing: BindingSuspension | undefined,
  policy: Suspension | undefined,
): BindingSuspension | undefined {
  if (policy !== undefined)
    return { ...policy, ...(existing?.scheduling === undefined ? {} : { scheduling: existing.scheduling }) };
  if (existing === undefined) return undefined;
  return existing.scheduling === undefined ? {} : { scheduling: existing.scheduling };
}

/** A binding spec being merged: the existing one, copied, with fields replaced in place. */
type SpecDraft = { -readonly [K in keyof ResourceBindingSpec]: ResourceBindingSpec[K] };

function setOrDelete<K extends keyof ResourceBindingSpec>(
  spec: SpecDraft,
  key: K,
  value: ResourceBindingSpec[K] | undefined,
): void {
  if (value === undefined) delete spec[key];
  else spec[key] = value;
}

/**
 * The existing binding after Karmada's mutate function. Throws BindingOwnerMismatchError when it is
 * controlled by another object than the template (a predecessor with the same name awaiting GC).
 */
export function mutateBinding<B extends Binding>(existing: B, desired: DesiredBinding): B {
  const want = desired.binding;
  const templateUid = want.spec.resource.uid;
  const owner = existing.metadata.ownerReferences?.find((ref) => ref.controller === true);
  if (owner !== undefined && owner.uid !== templateUid) {
    throw new BindingOwnerMismatchError(existing.metadata.name ?? '', owner.uid, templateUid);
  }

  const spec: SpecDraft = { ...existing.spec };
  const fields: readonly (keyof ResourceBindingSpec)[] =
    desired.kind === 'ResourceBinding'
      ? [...REPLACED_SPEC_FIELDS, ...RESOURCE_BINDING_ONLY_FIELDS]
      : REPLACED_SPEC_FIELDS;
  for (const field of fields) setOrDelete(spec, field, want.spec[field]);
  setOrDelete(spec, 'suspension', mergeSuspension(existing.spec.suspension, desired.policySuspension));

  const labels = mergeMaps(existing.metadata.labels, want.metadata.labels);
  const annotations = mergeMaps(existing.metadata.annotations, want.metadata.annotations);
  const finalizers = mergeFinalizers(existing.metadata.finalizers, want.metadata.finalizers);
  let metadata = {
    ...existing.metadata,
    ...(labels === undefined ? {} : { labels }),
    ...(annotations === undefined ? {} : { annotations }),
    ...(finalizers === undefined ? {} : { finalizers }),
    ownerReferences: want.metadata.ownerReferences ?? [],
  };
  // excludeClusterPolicy: a PropagationPolicy's binding must not keep a ClusterPropagationPolicy's claim.
  if (
    desired.claimedBy === 'PropagationPolicy' &&
    metadata.labels?.[Labels.ClusterPropagationPolicyPermanentId] !== undefined
  ) {
    metadata = withMetadataChange(metadata, REMOVE_CLUSTER_PROPAGATION_POLICY_CLAIM);
  }
  return { ...existing, metadata, spec };
}

/**
 * What Karmada's binding webhooks do on create (pkg/webhook/resourcebinding/mutating.go and
 * clusterresourcebinding/mutating.go): a binding without a permanent id gets one. Karmada finds a binding's
 * Works by it: bindings without one would all share the empty id, and a Karmada controller-manager started on
 * such a control plane would delete each other's Works as orphans.
 */
function withPermanentId(
  desired: DesiredBinding,
  newId: (() => string) | undefined,
): DesiredBinding['binding'] {
  const { binding } = desired;
  if (newId === undefined) return binding;
  const label =
    desired.kind === 'ClusterResourceBinding'
      ? Labels.ClusterResourceBindingPermanentId
      : Labels.ResourceBindingPermanentId;
  if (binding.metadata.labels?.[label]) return binding;
  return {
    ...binding,
    metadata: { ...binding.metadata, labels: { ...binding.metadata.labels, [label]: newId() } },
  };
}

/**
 * What to write for `desired`, given the binding currently in the cache (undefined when there is none).
 * Returns op "none" when the mutated binding is semantically equal to the stored one.
 */
export function planBindingWrite(
  desired: DesiredBinding,
  existing: Binding | undefined,
  newId?: () => string,
): BindingWrite {
  if (existing === undefined) return { op: 'create', binding: withPermanentId(desired, newId) };
  const mutated = mutateBinding(existing, desired);
  return semanticallyEqual(existing, mutated) ? { op: 'none' } : { op: 'update', binding: mutated };
}

/**
 * Whether a planned update changes nothing but the template resourceVersion the binding records
 * (spec.resource.resourceVersion): see SpecChanges for when such an update is left out.
 */
export function changesOnlyRecordedVersion(existing: Binding, planned: Binding): boolean {
  const recorded = existing.spec.resource.resourceVersion;
  if (recorded === planned.spec.resource.resourceVersion) return false;
  const { resourceVersion: _planned, ...resource } = planned.spec.resource;
  const aligned = {
    ...planned,
    spec: {
      ...planned.spec,
      resource: recorded === undefined ? resource : { ...resource, resourceVersion: recorded },
    },
  };
  return semanticallyEqual(existing, aligned);
}
