// Names, URLs and store keys derived from a GroupVersionResource and an object's metadata.
import { gvrToString } from '@warmstart/meta';
import type { GroupVersionResource, KubeObject, ObjectKey } from './types.js';

export { apiVersionOf, gvrToString } from '@warmstart/meta';

function prefix(gvr: GroupVersionResource): string {
  return gvr.group === '' ? `/api/${gvr.version}` : `/apis/${gvr.group}/${gvr.version}`;
}

/** The collection URL path: all namespaces when `namespace` is undefined. */
export function collectionPath(gvr: GroupVersionResource, namespace?: string): string {
  if (gvr.namespaced && namespace !== undefined && namespace !== '') {
    return `${prefix(gvr)}/namespaces/${encodeURIComponent(namespace)}/${gvr.resource}`;
  }
  return `${prefix(gvr)}/${gvr.resource}`;
}

/** The URL path of one object, optionally of its subresource (`status`). */
export function objectPath(
  gvr: GroupVersionResource,
  namespace: string | undefined,
  name: string,
  subresource?: string,
): string {
  if (gvr.namespaced && (namespace === undefined || namespace === '')) {
    throw new TypeError(`${gvrToString(gvr)} is namespaced: a namespace is required to address "${name}"`);
  }
  const base = `${collectionPath(gvr, gvr.namespaced ? namespace : undefined)}/${encodeURIComponent(name)}`;
  return subresource === undefined ? base : `${base}/${subresource}`;
}

/** The store key of an object: `namespace/name`, or `name` for cluster-scoped objects (client-go's MetaNamespaceKeyFunc). */
export function keyOf(object: KubeObject): string {
  const { namespace, name } = object.metadata;
  return namespace === undefined || namespace === '' ? name : `${namespace}/${name}`;
}

/** Normalises an ObjectKey to the store key form. */
export function toKey(key: ObjectKey): string {
  if (typeof key === 'string') return key;
  return key.namespace === undefined || key.namespace === '' ? key.name : `${key.namespace}/${key.name}`;
}

/** Splits a store key into namespace and name. */
export function splitKey(key: string): { namespace: string | undefined; name: string } {
  const slash = key.indexOf('/');
  if (slash < 0) return { namespace: undefined, name: key };
  return { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
