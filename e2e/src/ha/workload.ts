// The small Karmada fixture the HA and security tests share: a host with the CRDs and joined members, one
// Deployment with a PropagationPolicy, and what a test reads back (member replicas, the Lease's holder).
// Harness code: every call runs as the cluster's admin.
import { adminRequest } from '../cluster/admin-client.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { waitFor } from '../cluster/wait.js';
import { adminIdentity, ensure, installCrds, joinMember } from '../karmada/join.js';

export class AdminCallError extends Error {
  constructor(method: string, path: string, cluster: string, status: number, body: string) {
    super(
      `${method} ${path} on ${cluster} answered ${status}: ${body.slice(0, 300)}; the fixture expected success`,
    );
    this.name = 'AdminCallError';
  }
}

/** An admin request that must succeed (or answer one of `ok`); returns the parsed body. */
export async function adminCall(
  c: ClusterInfo,
  method: string,
  path: string,
  body?: unknown,
  ok: readonly number[] = [200, 201],
  contentType?: string,
): Promise<unknown> {
  const res = await adminRequest(adminIdentity(c), method, path, body, undefined, contentType);
  if (!ok.includes(res.status)) throw new AdminCallError(method, path, c.name, res.status, res.body);
  return res.body ? (JSON.parse(res.body) as unknown) : undefined;
}

export async function ensureNamespace(c: ClusterInfo, name: string): Promise<void> {
  await ensure(c, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

/** CRDs, the members joined, and karmada-system (where the leader election Lease lives). */
export async function prepareHost(host: ClusterInfo, members: readonly ClusterInfo[]): Promise<void> {
  await installCrds(host);
  for (const m of members) await joinMember(host, m);
  await ensureNamespace(host, 'karmada-system');
}

export interface WorkloadSpec {
  readonly namespace: string;
  readonly name: string;
  readonly replicas: number;
  /** Environment of the only container. */
  readonly env?: Readonly<Record<string, string>> | undefined;
}

export function deploymentBody(w: WorkloadSpec): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: w.name, namespace: w.namespace, labels: { app: w.name } },
    spec: {
      replicas: w.replicas,
      selector: { matchLabels: { app: w.name } },
      template: {
        metadata: { labels: { app: w.name } },
        spec: {
          containers: [
            {
              name: 'app',
              image: 'registry.example.com/app:1',
              env: Object.entries(w.env ?? {}).map(([name, value]) => ({ name, value })),
            },
          ],
        },
      },
    },
  };
}

/** A PropagationPolicy placing the named resources of one kind on exactly these members. */
export function policyBody(
  namespace: string,
  name: string,
  selectors: readonly { apiVersion: string; kind: string; name: string }[],
  members: readonly string[],
): Record<string, unknown> {
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name, namespace },
    spec: { resourceSelectors: selectors, placement: { clusterAffinity: { clusterNames: members } } },
  };
}

/** The namespace on host and members, the Deployment, and a policy propagating it to every member. */
export async function createPropagatedDeployment(
  host: ClusterInfo,
  members: readonly ClusterInfo[],
  w: WorkloadSpec,
): Promise<void> {
  for (const c of [host, ...members]) await ensureNamespace(c, w.namespace);
  await adminCall(host, 'POST', `/apis/apps/v1/namespaces/${w.namespace}/deployments`, deploymentBody(w));
  await adminCall(
    host,
    'POST',
    `/apis/policy.karmada.io/v1alpha1/namespaces/${w.namespace}/propagationpolicies`,
    policyBody(
      w.namespace,
      w.name,
      [{ apiVersion: 'apps/v1', kind: 'Deployment', name: w.name }],
      members.map((m) => m.name),
    ),
  );
}

export async function setReplicas(
  host: ClusterInfo,
  namespace: string,
  name: string,
  replicas: number,
): Promise<void> {
  await adminCall(
    host,
    'PATCH',
    `/apis/apps/v1/namespaces/${namespace}/deployments/${name}`,
    { spec: { replicas } },
    [200],
    'application/merge-patch+json',
  );
}

/** spec.replicas of the Deployment in a cluster, or undefined when it does not exist. */
export async function replicasIn(
  c: ClusterInfo,
  namespace: string,
  name: string,
): Promise<number | undefined> {
  const res = await adminRequest(
    adminIdentity(c),
    'GET',
    `/apis/apps/v1/namespaces/${namespace}/deployments/${name}`,
  );
  if (res.status === 404) return undefined;
  if (res.status !== 200)
    throw new AdminCallError('GET', `deployments/${name}`, c.name, res.status, res.body);
  return (JSON.parse(res.body) as { spec?: { replicas?: number } }).spec?.replicas;
}

/** Waits until every member runs the Deployment with `replicas`; returns the milliseconds it took. */
export async function waitReplicas(
  members: readonly ClusterInfo[],
  namespace: string,
  name: string,
  replicas: number,
  timeoutMs: number,
): Promise<number> {
  const started = Date.now();
  for (const m of members) {
    await waitFor(
      `${namespace}/${name} with ${replicas} replicas in ${m.name}`,
      async () => (await replicasIn(m, namespace, name)) === replicas,
      { timeoutMs: Math.max(1, timeoutMs - (Date.now() - started)), intervalMs: 200 },
    );
  }
  return Date.now() - started;
}

export const LEASE_NAMESPACE = 'karmada-system';
export const LEASE_NAME = 'karmada-controller-manager';

/** spec.holderIdentity of the leader election Lease ('' when released, undefined when absent). */
export async function leaseHolder(
  host: ClusterInfo,
  namespace = LEASE_NAMESPACE,
  name = LEASE_NAME,
): Promise<string | undefined> {
  const res = await adminRequest(
    adminIdentity(host),
    'GET',
    `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases/${name}`,
  );
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new AdminCallError('GET', `leases/${name}`, host.name, res.status, res.body);
  return (JSON.parse(res.body) as { spec?: { holderIdentity?: string } }).spec?.holderIdentity ?? '';
}
