// Backs leader election with an informer on the one Lease (namespace + field selector) and the write-only
// client: the Lease is watched, never fetched, so leader election adds no direct reads either.
import {
  type InformerManager,
  type KubeObject,
  type KubeObjectInput,
  resource,
  type Writer,
} from '@warmstart/informer-cache';
import type { Lease, LeaseClient } from '@warmstart/leader-election';

type CachedLease = Lease & KubeObject;

export const LEASES = resource<CachedLease>({
  group: 'coordination.k8s.io',
  version: 'v1',
  resource: 'leases',
  namespaced: true,
  kind: 'Lease',
});

/** The Writer's input for a Lease: the same fields, with absent optional ones left out rather than undefined. */
function leaseInput(lease: Lease): KubeObjectInput {
  const { name, namespace, resourceVersion, labels } = lease.metadata;
  return {
    apiVersion: lease.apiVersion,
    kind: lease.kind,
    metadata: {
      name,
      namespace,
      ...(resourceVersion === undefined ? {} : { resourceVersion }),
      ...(labels === undefined ? {} : { labels }),
    },
    ...(lease.spec === undefined ? {} : { spec: lease.spec }),
  };
}

export function informerLeaseClient(
  manager: InformerManager,
  writer: Pick<Writer, 'create' | 'update'>,
  namespace: string,
  name: string,
): LeaseClient {
  const informer = manager.forResource(LEASES, undefined, {
    namespace,
    fieldSelector: `metadata.name=${name}`,
  });
  return {
    current: () => informer.lister.get({ namespace, name }),
    waitForSync: (signal) => informer.waitForSync({ signal }),
    create: (lease, signal) => writer.create<CachedLease>(LEASES, leaseInput(lease), { signal }),
    update: (lease, signal) => writer.update<CachedLease>(LEASES, leaseInput(lease), { signal }),
  };
}
