// The resource a host informer caches for an apiVersion and kind (a binding's template, a dependency): controllers
// read only from caches, so a kind no informer holds is not read at all, and each caller says what that means.
import type { GroupVersionResource, InformerManager } from '@warmstart/informer-cache';

export function cachedResource(
  host: InformerManager,
  apiVersion: string,
  kind: string,
): GroupVersionResource | undefined {
  const [group, version] = apiVersion.includes('/')
    ? (apiVersion.split('/') as [string, string])
    : ['', apiVersion];
  return host
    .informers()
    .find((i) => i.gvr.group === group && i.gvr.version === version && i.gvr.kind === kind)?.gvr;
}
