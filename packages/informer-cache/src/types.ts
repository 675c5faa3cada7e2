// The shapes every other module speaks: which resource (GroupVersionResource) and what a cached object looks like.

/**
 * A resource the API server serves, with what is needed to build its URLs.
 * `group` is '' for the core group (`/api/v1`); `resource` is the lower-case plural (`deployments`).
 */
export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  /** True for namespaced resources; decides the URL shape and whether keys are `namespace/name` or `name`. */
  readonly namespaced: boolean;
  /** The kind (`Deployment`), used to fill `kind` on list items (the API server omits it) and in messages. */
  readonly kind?: string;
}

/** Turns every property, element and nested object read-only, as cached objects are. */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer E)[]
    ? readonly DeepReadonly<E>[]
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;

export interface OwnerReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly controller?: boolean;
  readonly blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly uid: string;
  readonly resourceVersion: string;
  readonly generation?: number;
  readonly generateName?: string;
  readonly creationTimestamp?: string;
  readonly deletionTimestamp?: string;
  readonly deletionGracePeriodSeconds?: number;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly ownerReferences?: readonly OwnerReference[];
  readonly finalizers?: readonly string[];
  readonly managedFields?: readonly unknown[];
  readonly [field: string]: unknown;
}

/** A Kubernetes object as the cache holds it: frozen, shared, never copied on read. */
export interface KubeObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
  readonly [field: string]: unknown;
}

/** What the Writer sends: metadata may lack the server-set fields. */
export interface KubeObjectInput {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: Partial<ObjectMeta> & { readonly name?: string; readonly namespace?: string };
  readonly [field: string]: unknown;
}

/** Identifies one object: a `namespace/name` (or `name`) key, or the two parts. */
export type ObjectKey = string | { readonly namespace?: string | undefined; readonly name: string };

/** The metav1.Status body the API server returns with errors and in watch ERROR events. */
export interface KubeStatus {
  readonly kind?: string;
  readonly apiVersion?: string;
  readonly status?: string;
  readonly message?: string;
  readonly reason?: string;
  readonly code?: number;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** A cancellable, bounded wait. Every wait in this package takes one. */
export interface WaitOptions {
  readonly signal?: AbortSignal | undefined;
  /** Milliseconds before the wait rejects with a timeout error naming the resource. */
  readonly timeoutMs?: number | undefined;
}
