// The keys of an object's controlling owners of one resource's kind: what `owns()` enqueues.
import type { GroupVersionResource, KubeObject } from '@warmstart/informer-cache';

/**
 * The `namespace/name` (or `name`) key of the owner that controls `object`, when that owner is of `owner`'s
 * group and kind. A namespaced owner lives in the object's namespace (owner references cannot cross namespaces).
 */
export function ownerKeys(object: Readonly<KubeObject>, owner: GroupVersionResource): string[] {
  const group = owner.group;
  const keys: string[] = [];
  for (const ref of object.metadata.ownerReferences ?? []) {
    if (ref.controller !== true || ref.kind !== owner.kind) continue;
    const slash = ref.apiVersion.indexOf('/');
    const refGroup = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
    if (refGroup !== group) continue;
    const ns = object.metadata.namespace;
    keys.push(owner.namespaced && ns ? `${ns}/${ref.name}` : ref.name);
  }
  return keys;
}
