// Queue keys for bindings of both kinds, and the Work index that finds a binding's Works in the cache.
import {
  Annotations,
  type ClusterResourceBinding,
  KarmadaResources,
  type ResourceBinding,
} from '@warmstart/api';
import type { KubeObject } from '@warmstart/informer-cache';

export type AnyBinding = ResourceBinding | ClusterResourceBinding;
/** The descriptor of either binding kind: a read of it is an AnyBinding. */
export type BindingResource =
  | typeof KarmadaResources.ResourceBinding
  | typeof KarmadaResources.ClusterResourceBinding;

/** `rb:<namespace>/<name>` or `crb:<name>`. */
export function bindingKey(o: Readonly<KubeObject>): string {
  return o.kind === 'ClusterResourceBinding' || o.metadata.namespace === undefined
    ? `crb:${o.metadata.name}`
    : `rb:${o.metadata.namespace}/${o.metadata.name}`;
}

export function parseBindingKey(key: string): {
  gvr: BindingResource;
  namespace: string | undefined;
  name: string;
} {
  if (key.startsWith('crb:'))
    return { gvr: KarmadaResources.ClusterResourceBinding, namespace: undefined, name: key.slice(4) };
  const [namespace, name] = key.slice(3).split('/') as [string, string];
  return { gvr: KarmadaResources.ResourceBinding, namespace, name };
}

export const WORKS_BY_BINDING = 'binding';

/** Index of Works by the binding named in their annotations (`rb:ns/name` / `crb:name`). */
export function worksByBinding(work: Readonly<KubeObject>): string[] {
  const a = work.metadata.annotations ?? {};
  const crb = a[Annotations.ClusterResourceBindingName];
  if (crb) return [`crb:${crb}`];
  const ns = a[Annotations.ResourceBindingNamespace];
  const name = a[Annotations.ResourceBindingName];
  return ns && name ? [`rb:${ns}/${name}`] : [];
}
