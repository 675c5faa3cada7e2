// Backs leader election with an informer on the one Lease (namespace + field selector) and the write-only
// client: the Lease is watched, never fetched, so leader election adds no direct reads either.
import type { InformerManager, KubeObjectInput, Writer } from '@warmstart/informer-cache';
import type { Lease, LeaseClient } from '@warmstart/leader-election';

export const LEASES = {
  group: 'coordination.k8s.io',
  version: 'v1',
  resource: 'leases',
  namespaced: true,
  kind: 'Lease',
} as const;

export function informerLeaseClient(
  manager: InformerManager,
  writer: Writer,
  namespace: string,
  name: string,
): LeaseClient {
  const informer = manager.forResource(LEASES, undefined, {
    namespace,
    fieldSelector: `metadata.name=${name}`,
  });
  return {
    current: () => informer.lister.get({ namespace, name }) as unknown as Lease | undefined,
    waitForSync: (signal) => informer.waitForSync({ signal }),
    create: async (lease, signal) =>
      (await writer.create(LEASES, lease as unknown as KubeObjectInput, { signal })) as unknown as Lease,
    update: async (lease, signal) =>
      (await writer.update(LEASES, lease as unknown as KubeObjectInput, { signal })) as unknown as Lease,
  };
}
