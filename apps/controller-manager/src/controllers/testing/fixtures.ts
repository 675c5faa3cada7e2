// Builders for the cached objects the controller tests feed in. Everything they return is deep-frozen, as the
// informer store's objects are, so a function that mutates its input fails the test with a TypeError.
import type {
  APIEnablement,
  Cluster,
  ClusterResourceBinding,
  Condition,
  Placement,
  ResourceBinding,
  ResourceBindingSpec,
  ResourceBindingStatus,
  StringMap,
  Taint,
  TargetCluster,
  UnstructuredObject,
  Work,
} from '@warmstart/api';

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export interface ClusterOptions {
  readonly labels?: StringMap;
  readonly ready?: boolean;
  readonly deleting?: boolean;
  readonly taints?: readonly Taint[];
  readonly provider?: string;
  readonly region?: string;
  readonly zones?: readonly string[];
  readonly apiEnablements?: readonly APIEnablement[];
  readonly apiListComplete?: boolean;
}

export function cluster(name: string, o: ClusterOptions = {}): Cluster {
  const conditions: Condition[] = [
    {
      type: 'Ready',
      status: o.ready === false ? 'False' : 'True',
      lastTransitionTime: '2026-01-01T00:00:00Z',
      reason: o.ready === false ? 'ClusterNotReachable' : 'ClusterReady',
      message: '',
    },
  ];
  if (o.apiListComplete !== undefined) {
    conditions.push({
      type: 'CompleteAPIEnablements',
      status: o.apiListComplete ? 'True' : 'False',
      lastTransitionTime: '2026-01-01T00:00:00Z',
      reason: 'x',
      message: '',
    });
  }
  return deepFreeze({
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: {
      name,
      ...(o.labels ? { labels: o.labels } : {}),
      ...(o.deleting ? { deletionTimestamp: '2026-01-02T00:00:00Z' } : {}),
    },
    spec: {
      syncMode: 'Push',
      ...(o.taints ? { taints: o.taints } : {}),
      ...(o.provider ? { provider: o.provider } : {}),
      ...(o.region ? { region: o.region } : {}),
      ...(o.zones ? { zones: o.zones } : {}),
    },
    status: { conditions, ...(o.apiEnablements ? { apiEnablements: o.apiEnablements } : {}) },
  });
}

export interface BindingOptions {
  readonly name?: string;
  readonly namespace?: string;
  readonly id?: string;
  readonly generation?: number;
  readonly annotations?: StringMap;
  readonly placement?: Placement;
  readonly replicas?: number;
  readonly clusters?: readonly TargetCluster[];
  readonly spec?: Partial<ResourceBindingSpec>;
  readonly status?: ResourceBindingStatus;
  readonly deleting?: boolean;
}

export function resourceBinding(o: BindingOptions = {}): ResourceBinding {
  return deepFreeze({
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: {
      name: o.name ?? 'nginx-deployment',
      namespace: o.namespace ?? 'default',
      generation: o.generation ?? 1,
      labels: { 'resourcebinding.karmada.io/permanent-id': o.id ?? 'rb-id-1' },
      ...(o.annotations ? { annotations: o.annotations } : {}),
      ...(o.deleting ? { deletionTimestamp: '2026-01-02T00:00:00Z' } : {}),
    },
    spec: {
      resource: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: o.namespace ?? 'default',
        name: 'nginx',
        uid: 'template-uid',
        resourceVersion: '100',
      },
      ...(o.placement ? { placement: o.placement } : {}),
      ...(o.replicas !== undefined ? { replicas: o.replicas } : {}),
      ...(o.clusters ? { clusters: o.clusters } : {}),
      ...o.spec,
    },
    ...(o.status ? { status: o.status } : {}),
  });
}

export function clusterResourceBinding(
  o: Pick<
    BindingOptions,
    'id' | 'annotations' | 'placement' | 'replicas' | 'clusters' | 'spec' | 'status'
  > = {},
): ClusterResourceBinding {
  return deepFreeze({
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ClusterResourceBinding',
    metadata: {
      name: 'reader-clusterrole',
      generation: 1,
      labels: { 'clusterresourcebinding.karmada.io/permanent-id': o.id ?? 'crb-id-1' },
      ...(o.annotations ? { annotations: o.annotations } : {}),
    },
    spec: {
      resource: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        name: 'reader',
        uid: 'cr-uid',
      },
      ...(o.placement ? { placement: o.placement } : {}),
      ...(o.replicas !== undefined ? { replicas: o.replicas } : {}),
      ...(o.clusters ? { clusters: o.clusters } : {}),
      ...o.spec,
    },
    ...(o.status ? { status: o.status } : {}),
  });
}

/** A Deployment as the control plane's cache holds it (managedFields already stripped). */
export function deploymentTemplate(
  o: { replicas?: number; annotations?: StringMap; labels?: StringMap } = {},
): UnstructuredObject {
  return deepFreeze({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'nginx',
      namespace: 'default',
      uid: 'template-uid',
      resourceVersion: '100',
      generation: 3,
      creationTimestamp: '2026-01-01T00:00:00Z',
      labels: {
        app: 'nginx',
        'propagationpolicy.karmada.io/permanent-id': 'pp-id-1',
        ...o.labels,
      },
      annotations: {
        'propagationpolicy.karmada.io/namespace': 'default',
        'propagationpolicy.karmada.io/name': 'nginx-pp',
        ...o.annotations,
      },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Namespace', name: 'default', uid: 'ns-uid' }],
      finalizers: ['example.com/keep'],
    },
    spec: {
      replicas: o.replicas ?? 9,
      selector: { matchLabels: { app: 'nginx' } },
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] },
      },
    },
    status: { replicas: 9, readyReplicas: 9 },
  });
}

export function work(o: {
  namespace?: string;
  name?: string;
  labels?: StringMap;
  annotations?: StringMap;
  finalizers?: readonly string[];
  manifests?: readonly Readonly<Record<string, unknown>>[];
  deleting?: boolean;
  preserve?: boolean;
  suspend?: boolean;
}): Work {
  return deepFreeze({
    apiVersion: 'work.karmada.io/v1alpha1',
    kind: 'Work',
    metadata: {
      name: o.name ?? 'nginx-abc',
      namespace: o.namespace ?? 'karmada-es-member1',
      ...(o.labels ? { labels: o.labels } : {}),
      ...(o.annotations ? { annotations: o.annotations } : {}),
      finalizers: o.finalizers ?? ['karmada.io/execution-controller'],
      ...(o.deleting ? { deletionTimestamp: '2026-01-02T00:00:00Z' } : {}),
    },
    spec: {
      workload: { manifests: o.manifests ?? [] },
      ...(o.preserve !== undefined ? { preserveResourcesOnDeletion: o.preserve } : {}),
      ...(o.suspend !== undefined ? { suspendDispatching: o.suspend } : {}),
    },
  });
}

/** A member cluster's object of the same kind and name, as its cache would hold it. */
export function memberObject(o: { labels?: StringMap; annotations?: StringMap } = {}): UnstructuredObject {
  return deepFreeze({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'nginx',
      namespace: 'default',
      ...(o.labels ? { labels: o.labels } : {}),
      ...(o.annotations ? { annotations: o.annotations } : {}),
    },
    spec: { replicas: 3 },
  });
}
