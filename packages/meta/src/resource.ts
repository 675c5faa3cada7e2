// Which resource: a GroupVersionResource, and the typed descriptor that also carries the type of its objects, so
// `reader.get(Works, key)` is a `Work` without a type argument or a cast.
import type { KubeObject } from './object.js';

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
  /** The kind (`Deployment`): informers fill it (and apiVersion) in on list items, which come without. */
  readonly kind: string;
}

// Type-level only: no descriptor has this property at run time. Being required, it keeps an untyped
// GroupVersionResource from passing for a typed descriptor where a typed one is asked for; being a function of
// T in and out, it makes descriptors invariant, so `Resource<Lease>` does not pass for `Resource<ConfigMap>`
// merely because a Lease would fit a loosely typed ConfigMap.
declare const objectType: unique symbol;

/**
 * A GroupVersionResource that carries the type of its objects. Make one with `resource<T>(...)`. Give `T` a
 * literal `kind` (as the Karmada types have): two object types that fit each other both ways are one type to
 * the compiler.
 */
export interface Resource<T extends KubeObject = KubeObject> extends GroupVersionResource {
  readonly [objectType]: (object: T) => T;
}

/** The object type of a resource: its descriptor's type, or KubeObject for an untyped GroupVersionResource. */
export type ObjectOf<R extends GroupVersionResource> = R extends Resource<infer T> ? T : KubeObject;

/** A typed descriptor, frozen: `const Works = resource<Work>({ group: 'work.karmada.io', ... })`. */
export function resource<T extends KubeObject>(gvr: GroupVersionResource): Resource<T> {
  // The object type exists only for the compiler (see objectType above); a descriptor is the plain GVR.
  return Object.freeze({ ...gvr }) as Resource<T>;
}

/** `v1` for the core group, else `group/version`: the apiVersion of the resource's objects. */
export function apiVersionOf(gvr: Pick<GroupVersionResource, 'group' | 'version'>): string {
  return gvr.group === '' ? gvr.version : `${gvr.group}/${gvr.version}`;
}

const names = new WeakMap<GroupVersionResource, string>();

/**
 * `core/v1/pods`, `apps/v1/deployments`: the resource part of gate names, metrics labels and errors, and the key
 * every informer lookup uses. Remembered per frozen descriptor: building and hashing a new string on each cache
 * read was ~2% of a restarted manager's CPU (issue #16); an object that is not frozen may change, so it is not.
 */
export function gvrToString(gvr: GroupVersionResource): string {
  const known = names.get(gvr);
  if (known !== undefined) return known;
  const name = `${gvr.group === '' ? 'core' : gvr.group}/${gvr.version}/${gvr.resource}`;
  if (Object.isFrozen(gvr)) names.set(gvr, name);
  return name;
}
