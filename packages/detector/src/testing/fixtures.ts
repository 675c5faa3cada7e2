// Builders for test objects. Kept out of the published build (tsconfig.build.json excludes src/testing).
import {
  Annotations,
  type ClusterPropagationPolicy,
  type LabelSelector,
  Labels,
  type ObjectMeta,
  type PropagationPolicy,
  type PropagationSpec,
  type ResourceSelector,
  type UnstructuredObject,
} from '@warmstart/api';

export function deployment(
  name: string,
  options: {
    namespace?: string;
    labels?: Record<string, string>;
    uid?: string;
    resourceVersion?: string;
    spec?: unknown;
  } = {},
): UnstructuredObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: options.namespace ?? 'default',
      uid: options.uid ?? `uid-${name}`,
      resourceVersion: options.resourceVersion ?? '100',
      ...(options.labels ? { labels: options.labels } : {}),
    },
    spec: options.spec ?? { replicas: 2, template: { spec: { containers: [{ name: 'c' }] } } },
  };
}

export function clusterRole(name: string, labels?: Record<string, string>): UnstructuredObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name, uid: `uid-${name}`, resourceVersion: '7', ...(labels ? { labels } : {}) },
  };
}

export const byName = (name: string, extra: Partial<ResourceSelector> = {}): ResourceSelector => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  name,
  ...extra,
});

export const byLabels = (
  labelSelector: LabelSelector,
  extra: Partial<ResourceSelector> = {},
): ResourceSelector => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  labelSelector,
  ...extra,
});

export const all = (extra: Partial<ResourceSelector> = {}): ResourceSelector => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  ...extra,
});

interface PolicyOptions {
  readonly namespace?: string;
  readonly priority?: number;
  readonly id?: string | null;
  readonly spec?: Partial<PropagationSpec>;
  readonly metadata?: Partial<ObjectMeta>;
}

export function pp(
  name: string,
  selectors: readonly ResourceSelector[],
  options: PolicyOptions = {},
): PropagationPolicy {
  const id = options.id === undefined ? `pp-id-${name}` : options.id;
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: {
      name,
      namespace: options.namespace ?? 'default',
      ...(id === null ? {} : { labels: { [Labels.PropagationPolicyPermanentId]: id } }),
      ...options.metadata,
    },
    spec: {
      resourceSelectors: selectors,
      ...(options.priority === undefined ? {} : { priority: options.priority }),
      ...options.spec,
    },
  };
}

export function cpp(
  name: string,
  selectors: readonly ResourceSelector[],
  options: PolicyOptions = {},
): ClusterPropagationPolicy {
  const id = options.id === undefined ? `cpp-id-${name}` : options.id;
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'ClusterPropagationPolicy',
    metadata: {
      name,
      ...(id === null ? {} : { labels: { [Labels.ClusterPropagationPolicyPermanentId]: id } }),
      ...options.metadata,
    },
    spec: {
      resourceSelectors: selectors,
      ...(options.priority === undefined ? {} : { priority: options.priority }),
      ...options.spec,
    },
  };
}

/** Metadata carrying a complete PropagationPolicy claim. */
export function ppClaimed<M extends Partial<ObjectMeta>>(meta: M, policy: PropagationPolicy): M {
  return {
    ...meta,
    labels: {
      ...meta.labels,
      [Labels.PropagationPolicyPermanentId]: policy.metadata.labels![Labels.PropagationPolicyPermanentId]!,
    },
    annotations: {
      ...meta.annotations,
      [Annotations.PropagationPolicyNamespace]: policy.metadata.namespace!,
      [Annotations.PropagationPolicyName]: policy.metadata.name!,
    },
  };
}

/** Metadata carrying a complete ClusterPropagationPolicy claim. */
export function cppClaimed<M extends Partial<ObjectMeta>>(meta: M, policy: ClusterPropagationPolicy): M {
  return {
    ...meta,
    labels: {
      ...meta.labels,
      [Labels.ClusterPropagationPolicyPermanentId]:
        policy.metadata.labels![Labels.ClusterPropagationPolicyPermanentId]!,
    },
    annotations: { ...meta.annotations, [Annotations.ClusterPropagationPolicyName]: policy.metadata.name! },
  };
}

/** A JSON round trip: what a cache holds after the object went through the API server. */
export const wire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
