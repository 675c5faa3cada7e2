// The ResourceBinding or ClusterResourceBinding a claimed template should have (BuildResourceBinding /
// BuildClusterResourceBinding). Zero values of Karmada's non-pointer fields are left out, as Go's omitempty
// leaves them out, so a binding Karmada wrote and one built here compare equal.
import {
  type BindingSuspension,
  bindingName,
  type ClusterResourceBinding,
  Finalizers,
  type KubeObject,
  type ObjectReference,
  type OwnerReference,
  type PropagationSpec,
  type ResourceBinding,
  type ResourceBindingSpec,
  type Suspension,
  type WorkloadAffinityGroups,
} from '@warmstart/api';
import { claimMetadata, permanentIdOf } from './claim.js';
import { InvalidBindingInputError, SchedulePriorityError } from './errors.js';
import type { ClaimingPolicy } from './policy-choice.js';
import { interpretReplicas, type ReplicaInterpretation, type ReplicaOptions } from './replicas.js';

export interface BuildBindingOptions extends ReplicaOptions {
  /** Karmada's PriorityBasedScheduling gate (beta, on by default): copy schedulePriority. */
  readonly priorityBasedScheduling?: boolean;
  /** The value of a scheduling.k8s.io PriorityClass, or undefined when there is none by that name. */
  readonly priorityClassValue?: (name: string) => number | undefined;
  /** Karmada's WorkloadAffinity gate (off by default): derive workloadAffinityGroups. */
  readonly workloadAffinity?: boolean;
  /** Replaces the built-in replica interpretation (e.g. for a custom resource with replicas). */
  readonly interpretReplicas?: (template: KubeObject) => ReplicaInterpretation | undefined;
}

/** The binding a template should have, with what the update rules need to know about how it was made. */
export type DesiredBinding = (
  | { readonly kind: 'ResourceBinding'; readonly binding: ResourceBinding }
  | { readonly kind: 'ClusterResourceBinding'; readonly binding: ClusterResourceBinding }
) & {
  /** The kind of policy that claimed the template: the update rules differ slightly. */
  readonly claimedBy: ClaimingPolicy['kind'];
  /** The policy's spec.suspension, merged into an existing binding's suspension on update. */
  readonly policySuspension: Suspension | undefined;
};

function controllerRef(template: KubeObject): OwnerReference {
  const { name, uid } = template.metadata;
  if (!name || !uid) {
    throw new InvalidBindingInputError(
      `template ${template.kind} ${name ?? '<unnamed>'} has no ${name ? 'uid' : 'name'}; ` +
        'a binding needs both for its owner reference. Read templates from the API server (or its cache), not from manifests.',
    );
  }
  return {
    apiVersion: template.apiVersion,
    kind: template.kind,
    name,
    uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}

function resourceRef(template: KubeObject): ObjectReference {
  const { namespace, name, uid, resourceVersion } = template.metadata;
  return {
    apiVersion: template.apiVersion,
    kind: template.kind,
    ...(namespace ? { namespace } : {}),
    name: name ?? '',
    ...(uid ? { uid } : {}),
    ...(resourceVersion ? { resourceVersion } : {}),
  };
}

function schedulePriority(
  spec: PropagationSpec,
  options: BuildBindingOptions,
): { priority: number } | undefined {
  if (options.priorityBasedScheduling === false || spec.schedulePriority === undefined) return undefined;
  const { priorityClassSource, priorityClassName } = spec.schedulePriority;
  if (priorityClassSource !== 'KubePriorityClass') {
    throw new SchedulePriorityError(
      `schedulePriority.priorityClassSource ${priorityClassSource} is not supported; use KubePriorityClass`,
    );
  }
  const value = options.priorityClassValue?.(priorityClassName);
  if (value === undefined) {
    throw new SchedulePriorityError(
      `PriorityClass "${priorityClassName}" named by the policy's schedulePriority was not found; create it or fix the policy`,
    );
  }
  return { priority: value };
}

function workloadAffinityGroups(
  template: KubeObject,
  spec: PropagationSpec,
  options: BuildBindingOptions,
): WorkloadAffinityGroups | undefined {
  const affinity = spec.placement?.workloadAffinity;
  if (!options.workloadAffinity || affinity === undefined) return undefined;
  const labels = template.metadata.labels ?? {};
  const group = (key: string | undefined): string | undefined =>
    key !== undefined && Object.hasOwn(labels, key) ? `${key}=${labels[key]}` : undefined;
  const affinityGroup = group(affinity.affinity?.groupByLabelKey);
  const antiAffinityGroup = group(affinity.antiAffinity?.groupByLabelKey);
  if (affinityGroup === undefined && antiAffinityGroup === undefined) return undefined;
  return {
    ...(affinityGroup === undefined ? {} : { affinityGroup }),
    ...(antiAffinityGroup === undefined ? {} : { antiAffinityGroup }),
  };
}

function bindingSpec(
  template: KubeObject,
  spec: PropagationSpec,
  options: BuildBindingOptions,
): ResourceBindingSpec {
  const interpreted = (options.interpretReplicas ?? ((t) => interpretReplicas(t, options)))(template);
  const priority = schedulePriority(spec, options);
  const groups = workloadAffinityGroups(template, spec, options);
  const suspension: BindingSuspension | undefined =
    spec.suspension === undefined ? undefined : { ...spec.suspension };
  return {
    resource: resourceRef(template),
    ...(spec.propagateDeps ? { propagateDeps: true } : {}),
    ...(interpreted?.replicaRequirements === undefined
      ? {}
      : { replicaRequirements: interpreted.replicaRequirements }),
    ...(interpreted?.replicas ? { replicas: interpreted.replicas } : {}),
    // Karmada points the binding at the policy's Placement struct, which is never nil.
    placement: spec.placement ?? {},
    ...(spec.schedulerName ? { schedulerName: spec.schedulerName } : {}),
    ...(spec.failover === undefined ? {} : { failover: spec.failover }),
    ...(spec.conflictResolution ? { conflictResolution: spec.conflictResolution } : {}),
    ...(suspension === undefined ? {} : { suspension }),
    ...(spec.preserveResourcesOnDeletion === undefined
      ? {}
      : { preserveResourcesOnDeletion: spec.preserveResourcesOnDeletion }),
    ...(priority === undefined ? {} : { schedulePriority: priority }),
    ...(groups === undefined ? {} : { workloadAffinityGroups: groups }),
  };
}

/**
 * The binding `claiming` should have for `template`: a ResourceBinding in the template's namespace (whichever
 * kind of policy claimed it), or a ClusterResourceBinding for a cluster-scoped template. Named
 * `<name>-<kind>`, controlled by the template, with the binding finalizer and the policy's claim metadata.
 * Throws MissingPermanentIdError, InvalidBindingInputError or SchedulePriorityError.
 */
export function buildDesiredBinding(
  template: KubeObject,
  claiming: ClaimingPolicy,
  options: BuildBindingOptions = {},
): DesiredBinding {
  const id = permanentIdOf(claiming);
  const namespace = template.metadata.namespace;
  const claim = claimMetadata(claiming, id);
  const common = {
    claimedBy: claiming.kind,
    policySuspension: claiming.policy.spec.suspension,
  } as const;
  const metadataBase = {
    name: bindingName(template.kind, template.metadata.name ?? ''),
    labels: claim.setLabels,
    annotations: claim.setAnnotations,
    ownerReferences: [controllerRef(template)],
  };
  const spec = bindingSpec(template, claiming.policy.spec, options);
  if (namespace) {
    return {
      ...common,
      kind: 'ResourceBinding',
      binding: {
        apiVersion: 'work.karmada.io/v1alpha2',
        kind: 'ResourceBinding',
        metadata: { ...metadataBase, namespace, finalizers: [Finalizers.ResourceBinding] },
        spec,
      },
    };
  }
  if (claiming.kind === 'PropagationPolicy') {
    throw new InvalidBindingInputError(
      `PropagationPolicy ${claiming.policy.metadata.name ?? ''} cannot claim cluster-scoped ${template.kind} ` +
        `${template.metadata.name ?? ''}; only a ClusterPropagationPolicy can`,
    );
  }
  return {
    ...common,
    kind: 'ClusterResourceBinding',
    binding: {
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ClusterResourceBinding',
      metadata: { ...metadataBase, finalizers: [Finalizers.ClusterResourceBinding] },
      spec,
    },
  };
}
