// What Karmada's mutating webhooks do to a PropagationPolicy or ClusterPropagationPolicy on create, for a
// control plane without them: the permanent-id label and the finalizer (without which no template can be
// claimed or released), plus the spec defaults a CRD cannot express because they depend on other fields.
import {
  type ClusterPropagationPolicy,
  Finalizers,
  Labels,
  type Placement,
  type PropagationPolicy,
  type PropagationSpec,
  type ResourceSelector,
} from '@warmstart/api';

/** Karmada's default grace period for a graceful application failover, in seconds. */
export const DEFAULT_FAILOVER_GRACE_PERIOD_SECONDS = 600;

const isServiceImport = (s: ResourceSelector): boolean =>
  s.apiVersion === 'multicluster.x-k8s.io/v1alpha1' && s.kind === 'ServiceImport';

function defaultPlacement(placement: Placement | undefined): Placement | undefined {
  if (placement === undefined) return undefined;
  const spread = placement.spreadConstraints?.map((c) => ({
    ...c,
    ...(!c.spreadByField && !c.spreadByLabel ? { spreadByField: 'cluster' as const } : {}),
    ...(!c.minGroups ? { minGroups: 1 } : {}),
  }));
  const rs = placement.replicaScheduling;
  // The CRD defaults the type to Divided before the webhook runs, so an absent type counts as Divided.
  const weighted =
    rs !== undefined &&
    !rs.replicaDivisionPreference &&
    (rs.replicaSchedulingType ?? 'Divided') === 'Divided';
  return {
    ...placement,
    ...(spread === undefined ? {} : { spreadConstraints: spread }),
    ...(weighted ? { replicaScheduling: { ...rs, replicaDivisionPreference: 'Weighted' as const } } : {}),
  };
}

function defaultSpec(spec: PropagationSpec, selectorNamespace: string | undefined): PropagationSpec {
  const application = spec.failover?.application;
  const graceful = application?.purgeMode === 'Gracefully' || application?.purgeMode === 'Graciously';
  const placement = defaultPlacement(spec.placement);
  return {
    ...spec,
    resourceSelectors: spec.resourceSelectors.map((s) =>
      selectorNamespace !== undefined && !s.namespace ? { ...s, namespace: selectorNamespace } : s,
    ),
    ...(spec.resourceSelectors.some(isServiceImport) ? { propagateDeps: true } : {}),
    ...(placement === undefined ? {} : { placement }),
    ...(application !== undefined && graceful && application.gracePeriodSeconds === undefined
      ? {
          failover: {
            ...spec.failover,
            application: { ...application, gracePeriodSeconds: DEFAULT_FAILOVER_GRACE_PERIOD_SECONDS },
          },
        }
      : {}),
  };
}

function withIdAndFinalizer<P extends PropagationPolicy | ClusterPropagationPolicy>(
  policy: P,
  label: string,
  finalizer: string,
  newId: () => string,
): P['metadata'] {
  const labels = policy.metadata.labels ?? {};
  const finalizers = policy.metadata.finalizers ?? [];
  return {
    ...policy.metadata,
    labels: labels[label] ? labels : { ...labels, [label]: newId() },
    finalizers: finalizers.includes(finalizer) ? finalizers : [...finalizers, finalizer],
  };
}

/**
 * A PropagationPolicy as Karmada's webhook would admit it: selectors without a namespace get the policy's,
 * spread constraints default to spreadByField=cluster and minGroups=1, Divided replica scheduling defaults to
 * Weighted, ServiceImport selectors force propagateDeps, a graceful application failover gets a 600 s grace
 * period, and the permanent-id label (from `newId`, e.g. crypto.randomUUID) and finalizer are added if absent.
 */
export function defaultPropagationPolicy(policy: PropagationPolicy, newId: () => string): PropagationPolicy {
  return {
    ...policy,
    metadata: withIdAndFinalizer(
      policy,
      Labels.PropagationPolicyPermanentId,
      Finalizers.PropagationPolicy,
      newId,
    ),
    spec: defaultSpec(policy.spec, policy.metadata.namespace ?? ''),
  };
}

/** The same for a ClusterPropagationPolicy (selector namespaces are left alone). */
export function defaultClusterPropagationPolicy(
  policy: ClusterPropagationPolicy,
  newId: () => string,
): ClusterPropagationPolicy {
  return {
    ...policy,
    metadata: withIdAndFinalizer(
      policy,
      Labels.ClusterPropagationPolicyPermanentId,
      Finalizers.ClusterPropagationPolicy,
      newId,
    ),
    spec: defaultSpec(policy.spec, undefined),
  };
}
