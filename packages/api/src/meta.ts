// The slice of Kubernetes' core and meta/v1 types that Karmada's API embeds, written as plain JSON shapes.
// Only what the Karmada types reference is here: this package must not grow a dependency on a Kubernetes client.

/** A string-keyed map as Kubernetes serialises it (labels, annotations, node selectors). */
export type StringMap = Readonly<Record<string, string>>;

/** metav1.OwnerReference. */
export interface OwnerReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly controller?: boolean;
  readonly blockOwnerDeletion?: boolean;
}

/** metav1.ObjectMeta, without the fields no controller here reads. Timestamps are RFC 3339 strings. */
export interface ObjectMeta {
  readonly name?: string;
  readonly generateName?: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly generation?: number;
  readonly creationTimestamp?: string;
  readonly deletionTimestamp?: string;
  readonly deletionGracePeriodSeconds?: number;
  readonly labels?: StringMap;
  readonly annotations?: StringMap;
  readonly ownerReferences?: readonly OwnerReference[];
  readonly finalizers?: readonly string[];
  readonly managedFields?: readonly unknown[];
}

/** Any object with TypeMeta and ObjectMeta filled in. */
export interface KubeObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: ObjectMeta;
}

/** An object of any kind (a resource template), as decoded from JSON. */
export interface UnstructuredObject extends KubeObject {
  readonly [field: string]: unknown;
}

/** metav1.LabelSelectorRequirement. */
export interface LabelSelectorRequirement {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[];
}

/** metav1.LabelSelector. Absent (undefined) and empty ({}) mean different things to its users. */
export interface LabelSelector {
  readonly matchLabels?: StringMap;
  readonly matchExpressions?: readonly LabelSelectorRequirement[];
}

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
