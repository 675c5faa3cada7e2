// The shapes every other module speaks. The object model and resource descriptors are @warmstart/meta's (one
// definition for this package, the Karmada types and the controllers); the rest is this package's own.
export type {
  GroupVersionResource,
  KubeObject,
  KubeObjectInput,
  ObjectKey,
  ObjectMeta,
  ObjectOf,
  OwnerReference,
  Resource,
} from '@warmstart/meta';

/** Turns every property, element and nested object read-only, as cached objects are. */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer E)[]
    ? readonly DeepReadonly<E>[]
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;

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
  /**
   * Milliseconds the wait tolerates without progress (another page of the initial list, every 500 objects of a
   * WatchList stream) before it rejects: a large list that keeps moving is waited for, a stuck one is not.
   */
  readonly stallTimeoutMs?: number | undefined;
}
