// What the informer integration tests share: the resources they cache, kubeconfigs for the admin and the manager
// user (optionally pointed at a proxy), and the admin's Writer for set-up changes.
import { KubeConfig } from '@kubernetes/client-node';
import {
  ApiTransport,
  type GroupVersionResource,
  type KubeObject,
  type KubeObjectInput,
  resource,
  Writer,
} from '@warmstart/informer-cache';
import type { ClusterInfo } from '../cluster/provider.js';

export type ConfigMap = KubeObject & { readonly data?: Readonly<Record<string, string>> };

/** ConfigMaps, typed: what the informer tests cache and read. */
export const configmaps = resource<ConfigMap>({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespaced: true,
  kind: 'ConfigMap',
});

export const secrets: GroupVersionResource = {
  group: '',
  version: 'v1',
  resource: 'secrets',
  namespaced: true,
  kind: 'Secret',
};

export const namespaces: GroupVersionResource = {
  group: '',
  version: 'v1',
  resource: 'namespaces',
  namespaced: false,
  kind: 'Namespace',
};

/** Loads a kubeconfig file; with `server`, its cluster is reached there instead (a proxy in front of it). */
export function loadKubeConfig(path: string, server?: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  if (server === undefined) return kc;
  const redirected = new KubeConfig();
  redirected.loadFromOptions({
    clusters: kc.clusters.map((c) => ({ ...c, server })),
    users: kc.users,
    contexts: kc.contexts,
    currentContext: kc.currentContext,
  });
  return redirected;
}

/** The harness's own writes: the admin user, a source of its own, and no client-side rate limit. */
export interface AdminClient {
  readonly writer: Writer;
  readonly transport: ApiTransport;
  close(): void;
}

export function adminClient(cluster: ClusterInfo): AdminClient {
  const transport = ApiTransport.fromKubeConfig(loadKubeConfig(cluster.adminKubeconfig), {
    rateLimit: { qps: 0, burst: 1 },
  });
  return {
    writer: new Writer(transport, { source: 'e2e-setup' }),
    transport,
    close: () => transport.close(),
  };
}

export function namespaceObject(name: string): KubeObjectInput {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}

export function configMapObject(
  namespace: string,
  name: string,
  data: Readonly<Record<string, string>> = {},
  labels: Readonly<Record<string, string>> = {},
): KubeObjectInput {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels }, data };
}

/** A name no earlier run on the same cluster used. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
}
