// Installs the Karmada CRDs on a host and joins member clusters to it as Karmada's `karmadactl join` does
// for push mode: a ServiceAccount on the member with a token from the TokenRequest API, a Secret on the host
// (keys `token` and `caBundle`) and a Cluster object pointing at both. Harness code: it runs as the admin.
import { readFileSync } from 'node:fs';
import { crds } from '@warmstart/api';
import { parse } from 'yaml';
import { adminRequest, type TlsIdentity } from '../cluster/admin-client.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { waitFor } from '../cluster/wait.js';

export const CLUSTER_SECRET_NAMESPACE = 'karmada-cluster';
const MEMBER_SA_NAMESPACE = 'karmada-cluster';
const MEMBER_SA = 'warmstart-member';

/** The admin identity of a cluster, read from its kubeconfig. */
export function adminIdentity(
  cluster: ClusterInfo,
): TlsIdentity & { readonly certPem: string; readonly keyPem: string } {
  return kubeconfigIdentity(cluster, cluster.adminKubeconfig);
}

/** The client-certificate identity of one of a cluster's kubeconfigs (admin or manager). */
export function kubeconfigIdentity(
  cluster: ClusterInfo,
  path: string,
): TlsIdentity & { readonly certPem: string; readonly keyPem: string } {
  const kc = parse(readFileSync(path, 'utf8')) as {
    users: { user: { 'client-certificate-data': string; 'client-key-data': string } }[];
  };
  const user = kc.users[0]!.user;
  const certPem = Buffer.from(user['client-certificate-data'], 'base64').toString();
  const keyPem = Buffer.from(user['client-key-data'], 'base64').toString();
  return { server: cluster.server, caPath: cluster.caPath, certPath: '', keyPath: '', certPem, keyPem };
}

async function call(
  c: ClusterInfo,
  method: string,
  path: string,
  body?: unknown,
  ok: readonly number[] = [200, 201],
  contentType?: string,
): Promise<unknown> {
  const id = adminIdentity(c);
  const res = await adminRequest(id, method, path, body, undefined, contentType);
  if (!ok.includes(res.status))
    throw new Error(`${method} ${path} on ${c.name}: ${res.status} ${res.body.slice(0, 500)}`);
  return res.body ? JSON.parse(res.body) : undefined;
}

/** Creates (or leaves in place) an object; 409 AlreadyExists is fine. */
export async function ensure(c: ClusterInfo, collectionPath: string, body: unknown): Promise<void> {
  await call(c, 'POST', collectionPath, body, [201, 409]);
}

/** Installs every Karmada CRD and waits until each is Established. */
export async function installCrds(host: ClusterInfo): Promise<void> {
  for (const crd of crds) await ensure(host, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
  for (const crd of crds) {
    await waitFor(
      `CRD ${crd.metadata.name} Established`,
      async () => {
        const got = (await call(
          host,
          'GET',
          `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`,
        )) as {
          status?: { conditions?: { type: string; status: string }[] };
        };
        return got.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
      },
      { timeoutMs: 30_000 },
    );
  }
}

/** Joins `member` to `host` in push mode; returns the Cluster object's name. */
export async function joinMember(
  host: ClusterInfo,
  member: ClusterInfo,
  labels: Record<string, string> = {},
): Promise<string> {
  const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: MEMBER_SA_NAMESPACE } };
  await ensure(member, '/api/v1/namespaces', ns);
  await ensure(member, `/api/v1/namespaces/${MEMBER_SA_NAMESPACE}/serviceaccounts`, {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: MEMBER_SA },
  });
  await ensure(member, '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'warmstart-member-cluster-admin' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ kind: 'ServiceAccount', name: MEMBER_SA, namespace: MEMBER_SA_NAMESPACE }],
  });
  const tokenRequest = (await call(
    member,
    'POST',
    `/api/v1/namespaces/${MEMBER_SA_NAMESPACE}/serviceaccounts/${MEMBER_SA}/token`,
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 7 * 24 * 3600 },
    },
  )) as { status: { token: string } };
  await ensure(host, '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: CLUSTER_SECRET_NAMESPACE },
  });
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: member.name, namespace: CLUSTER_SECRET_NAMESPACE },
    type: 'Opaque',
    data: {
      token: Buffer.from(tokenRequest.status.token).toString('base64'),
      caBundle: readFileSync(member.caPath).toString('base64'),
    },
  };
  await call(
    host,
    'PUT',
    `/api/v1/namespaces/${CLUSTER_SECRET_NAMESPACE}/secrets/${member.name}`,
    secret,
    [200, 201],
  ).catch(async () => ensure(host, `/api/v1/namespaces/${CLUSTER_SECRET_NAMESPACE}/secrets`, secret));
  const cluster = {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: member.name, labels },
    spec: {
      syncMode: 'Push',
      apiEndpoint: member.internalServer ?? member.server,
      secretRef: { namespace: CLUSTER_SECRET_NAMESPACE, name: member.name },
    },
  };
  // Joining again (another test joined first) updates the labels and endpoint rather than failing.
  await call(
    host,
    'PATCH',
    `/apis/cluster.karmada.io/v1alpha1/clusters/${member.name}?fieldManager=warmstart-e2e&force=true`,
    cluster,
    [200, 201],
    'application/apply-patch+yaml',
  );
  return member.name;
}
