// The one Kubernetes object model every warmstart package speaks: metav1.ObjectMeta and an object of any kind,
// as JSON on the wire and as the informer caches hold them (frozen, shared).

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

/**
 * metav1.ObjectMeta. `name` is required: every stored object has one (the API server fills it from
 * `generateName`) and a cache keys by it; what a write sends may lack it (see KubeObjectInput). `uid` and
 * `resourceVersion` are the server's, so an object built locally (a desired Work, a manifest) has neither yet.
 * Timestamps are RFC 3339 strings. Fields not named here are kept, as unknown.
 */
export interface ObjectMeta {
  readonly name: string;
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
  readonly [field: string]: unknown;
}

/**
 * An object of any kind, with TypeMeta filled in: the informers set `apiVersion` and `kind` on list items (the
 * API server leaves them out) from their resource, and typed objects (a Karmada `Work`) narrow them to
 * literals. The index signature keeps every field of an unstructured object readable, and lets a typed object
 * be passed wherever any object is expected.
 */
export interface KubeObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: ObjectMeta;
  readonly [field: string]: unknown;
}

/**
 * What a write sends: the server sets uid and resourceVersion, and may generate the name. A field set to
 * undefined is left out of the JSON, as one that is absent.
 */
export interface KubeObjectInput {
  readonly apiVersion?: string | undefined;
  readonly kind?: string | undefined;
  readonly metadata: { readonly [K in keyof ObjectMeta]?: ObjectMeta[K] | undefined };
  readonly [field: string]: unknown;
}

/** Identifies one object: a `namespace/name` (or `name`) key, or the two parts. */
export type ObjectKey = string | { readonly namespace?: string | undefined; readonly name: string };

/** metav1.LabelSelectorRequirement. */
export interface LabelSelectorRequirement {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[] | undefined;
}

/** metav1.LabelSelector. Absent (undefined) and empty ({}) mean different things to its users. */
export interface LabelSelector {
  readonly matchLabels?: StringMap | undefined;
  readonly matchExpressions?: readonly LabelSelectorRequirement[] | undefined;
}
