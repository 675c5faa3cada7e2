// The migration load: Deployments spread over a few namespaces, each namespace with two PropagationPolicies,
// Duplicated to both members for the backend tier and Divided by static weights 1:2 for the frontend tier.
// The same load is written twice, under two namespace prefixes: once for Karmada to propagate and once for
// warmstart, so the objects each wrote for the same workload can be compared field for field.
import type { TlsIdentity } from '../cluster/admin-client.js';
import { adminRequest } from '../cluster/admin-client.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { adminIdentity } from '../karmada/join.js';
import { deployment, type LoadShape } from '../load/workloads.js';

export const DIVIDED_TIER = 'frontend';

async function create(id: TlsIdentity, path: string, body: unknown): Promise<void> {
  const res = await adminRequest(id, 'POST', path, body);
  if (res.status !== 201 && res.status !== 409)
    throw new Error(`creating ${path}: ${res.status} ${res.body.slice(0, 300)}`);
}

/**
 * The two policies of one namespace, as a user writes them: Karmada's mutating webhook (or, without it,
 * warmstart's detector) adds the selector namespaces, the permanent-id label and the finalizer.
 */
export function migrationPolicies(
  namespace: string,
  members: readonly string[],
): { path: string; body: unknown }[] {
  const [first, second] = members;
  const selector = (tier: string) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    labelSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'load', tier } },
  });
  const metadata = (name: string) => ({ name, namespace });
  const path = `/apis/policy.karmada.io/v1alpha1/namespaces/${namespace}/propagationpolicies`;
  return [
    {
      path,
      body: {
        apiVersion: 'policy.karmada.io/v1alpha1',
        kind: 'PropagationPolicy',
        metadata: metadata('duplicated'),
        spec: {
          resourceSelectors: [selector('backend')],
          placement: {
            clusterAffinity: { clusterNames: [...members] },
            replicaScheduling: { replicaSchedulingType: 'Duplicated' },
          },
        },
      },
    },
    {
      path,
      body: {
        apiVersion: 'policy.karmada.io/v1alpha1',
        kind: 'PropagationPolicy',
        metadata: metadata('divided'),
        spec: {
          resourceSelectors: [selector(DIVIDED_TIER)],
          placement: {
            clusterAffinity: { clusterNames: [...members] },
            replicaScheduling: {
              replicaSchedulingType: 'Divided',
              weightPreference: {
                staticWeightList: [
                  { targetCluster: { clusterNames: [first] }, weight: 1 },
                  { targetCluster: { clusterNames: [second] }, weight: 2 },
                ],
              },
            },
          },
        },
      },
    },
  ];
}

/**
 * Namespaces (on the host and every member: neither Karmada's namespace controller nor warmstart creates them on
 * members in this set-up), policies, then Deployments.
 */
export async function writeMigrationLoad(
  host: ClusterInfo,
  members: readonly ClusterInfo[],
  shape: LoadShape,
): Promise<void> {
  const id = adminIdentity(host);
  const names = members.map((m) => m.name);
  for (let n = 0; n < shape.namespaces; n++) {
    const ns = `${shape.prefix}-${n}`;
    for (const c of [host, ...members])
      await create(adminIdentity(c), '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: ns },
      });
    for (const p of migrationPolicies(ns, names)) await create(id, p.path, p.body);
  }
  const queue = Array.from({ length: shape.workloads }, (_, i) => i);
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
        const d = deployment(i, shape) as { metadata: { namespace: string } };
        await create(id, `/apis/apps/v1/namespaces/${d.metadata.namespace}/deployments`, d);
      }
    }),
  );
}
