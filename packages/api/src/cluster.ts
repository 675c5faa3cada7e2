// cluster.karmada.io/v1alpha1 Cluster: a member cluster and how to reach it. Karmada serves it from an
// aggregated API server; here it is a CRD with the same group, version, fields and a status subresource.
import type { Condition, KubeObject, ObjectMeta, Quantity, ResourceList, StringMap, Taint } from './meta.js';

export type ClusterSyncMode = 'Push' | 'Pull';

/** A Secret reference; the Secret holds the keys "token" and "caBundle". */
export interface LocalSecretReference {
  readonly namespace: string;
  readonly name: string;
}

export interface ResourceModelRange {
  readonly name: string;
  readonly min: Quantity;
  readonly max: Quantity;
}

export interface ResourceModel {
  readonly grade: number;
  readonly ranges: readonly ResourceModelRange[];
}

export interface ClusterSpec {
  readonly id?: string;
  readonly syncMode: ClusterSyncMode;
  readonly apiEndpoint?: string;
  readonly secretRef?: LocalSecretReference;
  readonly impersonatorSecretRef?: LocalSecretReference;
  readonly insecureSkipTLSVerification?: boolean;
  readonly proxyURL?: string;
  readonly proxyHeader?: StringMap;
  readonly provider?: string;
  readonly region?: string;
  readonly zone?: string;
  readonly zones?: readonly string[];
  readonly taints?: readonly Taint[];
  readonly resourceModels?: readonly ResourceModel[];
}

export interface APIResource {
  readonly name: string;
  readonly kind: string;
}

export interface APIEnablement {
  readonly groupVersion: string;
  readonly resources?: readonly APIResource[];
}

export interface NodeSummary {
  readonly totalNum?: number;
  readonly readyNum?: number;
}

export interface AllocatableModeling {
  readonly grade: number;
  readonly count: number;
}

export interface ResourceSummary {
  readonly allocatable?: ResourceList;
  readonly allocating?: ResourceList;
  readonly allocated?: ResourceList;
  readonly allocatableModelings?: readonly AllocatableModeling[];
}

export interface ClusterStatus {
  readonly kubernetesVersion?: string;
  readonly apiEnablements?: readonly APIEnablement[];
  readonly conditions?: readonly Condition[];
  readonly nodeSummary?: NodeSummary;
  readonly resourceSummary?: ResourceSummary;
  readonly remedyActions?: readonly string[];
}

export interface Cluster extends KubeObject {
  readonly apiVersion: 'cluster.karmada.io/v1alpha1';
  readonly kind: 'Cluster';
  readonly metadata: ObjectMeta;
  readonly spec: ClusterSpec;
  readonly status?: ClusterStatus;
}

/** Condition types on a Cluster's status. */
export const ClusterConditionType = {
  Ready: 'Ready',
  CompleteAPIEnablements: 'CompleteAPIEnablements',
} as const;
