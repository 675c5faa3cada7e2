// The slice of Kubernetes' core types that Karmada's API embeds, written as plain JSON shapes. The object model
// itself (ObjectMeta, KubeObject, LabelSelector) is @warmstart/meta's, the one every warmstart package shares;
// this package must not grow a dependency on a Kubernetes client.
import type { KubeObject } from '@warmstart/meta';

export type {
  KubeObject,
  LabelSelector,
  LabelSelectorRequirement,
  ObjectMeta,
  OwnerReference,
  StringMap,
} from '@warmstart/meta';

/** An object of any kind (a resource template), as decoded from JSON: @warmstart/meta's KubeObject. */
export type UnstructuredObject = KubeObject;

/** metav1.Condition. */
export interface Condition {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly observedGeneration?: number;
  readonly lastTransitionTime: string;
  readonly reason: string;
  readonly message: string;
}

/** corev1.Toleration. */
export interface Toleration {
  readonly key?: string;
  readonly operator?: 'Exists' | 'Equal';
  readonly value?: string;
  readonly effect?: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  readonly tolerationSeconds?: number;
}

/** corev1.Taint. */
export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  readonly timeAdded?: string;
}

/** corev1.NodeSelectorRequirement. */
export interface NodeSelectorRequirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  readonly values?: readonly string[];
}

/** corev1.NodeSelectorTerm. */
export interface NodeSelectorTerm {
  readonly matchExpressions?: readonly NodeSelectorRequirement[];
  readonly matchFields?: readonly NodeSelectorRequirement[];
}

/** corev1.NodeSelector (a pod's required node affinity). */
export interface NodeSelector {
  readonly nodeSelectorTerms: readonly NodeSelectorTerm[];
}

/** A resource.Quantity as it appears on the wire: a string such as "250m" or "1Gi", or a bare number. */
export type Quantity = string | number;

/** corev1.ResourceList. */
export type ResourceList = Readonly<Record<string, Quantity>>;
