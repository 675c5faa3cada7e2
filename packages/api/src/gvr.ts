// GroupVersionResource constants with the kind and scope that go with them, for informers, listers and writers.
// Karmada's are typed descriptors: `reader.get(KarmadaResources.Work, key)` is a `Work`.
import { type GroupVersionResource, type KubeObject, type Resource, resource } from '@warmstart/meta';
import type { ClusterResourceBinding, ResourceBinding } from './binding.js';
import type { Cluster } from './cluster.js';
import type { ClusterOverridePolicy, OverridePolicy } from './override.js';
import type { ClusterPropagationPolicy, PropagationPolicy } from './policy.js';
import type { Work } from './work.js';

export type { GroupVersionResource } from '@warmstart/meta';
export { apiVersionOf } from '@warmstart/meta';

const gvr = (
  group: string,
  version: string,
  resource: string,
  kind: string,
  namespaced: boolean,
): GroupVersionResource => Object.freeze({ group, version, resource, kind, namespaced });

const typed = <T extends KubeObject>(
  group: string,
  version: string,
  plural: string,
  kind: T['kind'] & string,
  namespaced: boolean,
): Resource<T> => resource<T>({ group, version, resource: plural, kind, namespaced });

/** Karmada's resources served by our CRDs. */
export const KarmadaResources = {
  PropagationPolicy: typed<PropagationPolicy>(
    'policy.karmada.io',
    'v1alpha1',
    'propagationpolicies',
    'PropagationPolicy',
    true,
  ),
  ClusterPropagationPolicy: typed<ClusterPropagationPolicy>(
    'policy.karmada.io',
    'v1alpha1',
    'clusterpropagationpolicies',
    'ClusterPropagationPolicy',
    false,
  ),
  OverridePolicy: typed<OverridePolicy>(
    'policy.karmada.io',
    'v1alpha1',
    'overridepolicies',
    'OverridePolicy',
    true,
  ),
  ClusterOverridePolicy: typed<ClusterOverridePolicy>(
    'policy.karmada.io',
    'v1alpha1',
    'clusteroverridepolicies',
    'ClusterOverridePolicy',
    false,
  ),
  ResourceBinding: typed<ResourceBinding>(
    'work.karmada.io',
    'v1alpha2',
    'resourcebindings',
    'ResourceBinding',
    true,
  ),
  ClusterResourceBinding: typed<ClusterResourceBinding>(
    'work.karmada.io',
    'v1alpha2',
    'clusterresourcebindings',
    'ClusterResourceBinding',
    false,
  ),
  Work: typed<Work>('work.karmada.io', 'v1alpha1', 'works', 'Work', true),
  Cluster: typed<Cluster>('cluster.karmada.io', 'v1alpha1', 'clusters', 'Cluster', false),
} as const;

/** Built-in resources the detector treats specially (replica interpretation, skip lists, dependencies). */
export const BuiltinResources = {
  Namespace: gvr('', 'v1', 'namespaces', 'Namespace', false),
  ConfigMap: gvr('', 'v1', 'configmaps', 'ConfigMap', true),
  Secret: gvr('', 'v1', 'secrets', 'Secret', true),
  Service: gvr('', 'v1', 'services', 'Service', true),
  ServiceAccount: gvr('', 'v1', 'serviceaccounts', 'ServiceAccount', true),
  PersistentVolumeClaim: gvr('', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim', true),
  Pod: gvr('', 'v1', 'pods', 'Pod', true),
  Event: gvr('', 'v1', 'events', 'Event', true),
  Deployment: gvr('apps', 'v1', 'deployments', 'Deployment', true),
  StatefulSet: gvr('apps', 'v1', 'statefulsets', 'StatefulSet', true),
  DaemonSet: gvr('apps', 'v1', 'daemonsets', 'DaemonSet', true),
  ReplicaSet: gvr('apps', 'v1', 'replicasets', 'ReplicaSet', true),
  Job: gvr('batch', 'v1', 'jobs', 'Job', true),
  CronJob: gvr('batch', 'v1', 'cronjobs', 'CronJob', true),
  Ingress: gvr('networking.k8s.io', 'v1', 'ingresses', 'Ingress', true),
  Role: gvr('rbac.authorization.k8s.io', 'v1', 'roles', 'Role', true),
  RoleBinding: gvr('rbac.authorization.k8s.io', 'v1', 'rolebindings', 'RoleBinding', true),
  ClusterRole: gvr('rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', false),
  ClusterRoleBinding: gvr(
    'rbac.authorization.k8s.io',
    'v1',
    'clusterrolebindings',
    'ClusterRoleBinding',
    false,
  ),
  CustomResourceDefinition: gvr(
    'apiextensions.k8s.io',
    'v1',
    'customresourcedefinitions',
    'CustomResourceDefinition',
    false,
  ),
  PriorityClass: gvr('scheduling.k8s.io', 'v1', 'priorityclasses', 'PriorityClass', false),
  Lease: gvr('coordination.k8s.io', 'v1', 'leases', 'Lease', true),
  EventsV1Event: gvr('events.k8s.io', 'v1', 'events', 'Event', true),
} as const;
